"""A shopping cart."""

from dataclasses import dataclass

TAX_RATE = 0.2


@dataclass
class Item:
    name: str
    price: int


class Cart:
    def __init__(self) -> None:
        self.items: list[Item] = []

    def add(self, item: Item) -> None:
        self.items.append(item)

    def total(self) -> int:
        """The total in cents, tax included."""
        subtotal = sum(item.price for item in self.items)
        return round(subtotal * (1 + TAX_RATE))


def describe(cart: Cart) -> str:
    return f"""Cart:
```
{len(cart.items)} items
```"""
