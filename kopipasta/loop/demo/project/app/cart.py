"""A shopping cart with line items and a discount."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class LineItem:
    sku: str
    unit_price: float
    quantity: int = 1


@dataclass
class Cart:
    items: list[LineItem] = field(default_factory=list)
    discount: float = 0.0

    def add(self, item: LineItem) -> None:
        self.items.append(item)

    def total(self) -> float:
        subtotal = sum(item.unit_price * item.quantity for item in self.items)
        return subtotal - self.discount

    def is_empty(self) -> bool:
        return not self.items
