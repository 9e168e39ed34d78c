"""How a target is read: the languages' own spellings of a name mean the protocol's dotted name.

Each spelling is one a model writes (a Go receiver, C++ `::` with type arguments, a
Java or C# parameter list); what it must come to is the Target the resolver is given.
"""

from __future__ import annotations

import pytest

from kopipasta.code.find.resolve import Target, parse_target, resolve_with_payload
from kopipasta.errors import AmbiguousTarget, PayloadError

SPELLINGS = [
    ("method Cart.total", Target("method", ("Cart", "total"), None)),
    ("Cart.total()", Target(None, ("Cart", "total"), None)),
    ("func (s *Server) ServeHTTP", Target("function", ("Server", "ServeHTTP"), None)),
    ("(*Server).handleDelete", Target(None, ("Server", "handleDelete"), None)),
    ("(s *Cache[V]) Get", Target(None, ("Cache", "Get"), None)),
    ("Ring<T>::push", Target(None, ("Ring", "push"), None)),
    ("Repository<TEntity, TKey>.Find", Target(None, ("Repository", "Find"), None)),
    ("Outer<Map<K, V>>::Inner<T>::get", Target(None, ("Outer", "Inner", "get"), None)),
    ("method OrderService.cancel(String)", Target("method", ("OrderService", "cancel"), None, "String")),
    (
        "ProductsController.Delete(int id, CancellationToken ct)",
        Target(None, ("ProductsController", "Delete"), None, "int id, CancellationToken ct"),
    ),
    ("Vector::operator<", Target(None, ("Vector", "operator<"), None)),
    ("Vector::operator<=>", Target(None, ("Vector", "operator<=>"), None)),
    ("Shop.Order.<=>", Target(None, ("Shop", "Order", "<=>"), None)),
    ("find#2", Target(None, ("find",), 2)),
]


@pytest.mark.parametrize(("written", "target"), SPELLINGS, ids=[written for written, _ in SPELLINGS])
def test_a_spelling_reads_as_the_dotted_name(written: str, target: Target) -> None:
    assert parse_target(written, "f") == target


def test_a_parameter_list_with_parentheses_inside_is_not_read_and_the_target_is_refused() -> None:
    with pytest.raises(PayloadError, match="is not `\\[kind\\] name`"):
        parse_target("Cart.total(Func<int> f, (int, int) pair)", "f")


OVERLOADED = b"""class OrderService {
    public List<Order> find(String customerId) {
        return repository.findByCustomer(customerId);
    }

    public List<Order> find(String customerId, int limit) {
        return List.of();
    }
}
"""


def _overloaded():
    from kopipasta.code.find.definitions import list_definitions
    from kopipasta.syntax.languages import language_for_path, parse

    spec = language_for_path("OrderService.java")
    assert spec is not None
    return list_definitions(spec, parse(spec, OVERLOADED))


def test_an_overload_target_with_the_payloads_parameter_list_picks_that_overload() -> None:
    payload = "public List<Order> find(String customerId, int limit) {\n    return List.of();\n}\n"
    target = parse_target("OrderService.find(String customerId, int limit)", "f")
    found, _ = resolve_with_payload(target, _overloaded(), "f", OVERLOADED, payload, overloads=True)
    assert found.line == 6


def test_an_overload_target_whose_parameter_list_is_not_the_payloads_is_refused() -> None:
    payload = "public List<Order> find(String customerId, int limit) {\n    return List.of();\n}\n"
    target = parse_target("OrderService.find(String, int)", "f")
    with pytest.raises(AmbiguousTarget, match=r"the target's parameter list \(String, int\) is not the payload's"):
        resolve_with_payload(target, _overloaded(), "f", OVERLOADED, payload, overloads=True)
