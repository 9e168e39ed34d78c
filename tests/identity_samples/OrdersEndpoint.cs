using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.Json.Serialization;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Shop.Orders
{
    public enum OrderStatus
    {
        Pending,
        Paid,
        Shipped,
        Cancelled,
    }

    /// <summary>An order line.</summary>
    public sealed record OrderLine(string Sku, int Quantity, decimal UnitPrice)
    {
        public decimal Total => Quantity * UnitPrice;
    }

    public interface IOrderStore
    {
        Task<Order?> FindAsync(Guid id, CancellationToken ct = default);

        Task SaveAsync(Order order, CancellationToken ct = default);
    }

    /// <summary>
    /// An order and its lines.
    /// </summary>
    public class Order
    {
        private readonly List<OrderLine> _lines = new();

        public Order(Guid id, string customer)
        {
            Id = id;
            Customer = customer;
        }

        public Guid Id { get; }

        public string Customer { get; private set; }

        [JsonIgnore]
        public OrderStatus Status { get; private set; } = OrderStatus.Pending;

        public IReadOnlyList<OrderLine> Lines => _lines;

        public decimal Total
        {
            get
            {
                return _lines.Sum(line => line.Total);
            }
        }

        public event EventHandler<OrderStatus>? StatusChanged;

        public void Add(OrderLine line)
        {
            if (Status != OrderStatus.Pending)
            {
                throw new InvalidOperationException($"cannot change a {Status} order");
            }
            _lines.Add(line);
        }

        public void MarkPaid()
        {
            Status = OrderStatus.Paid;
            StatusChanged?.Invoke(this, Status);
        }

        public override string ToString() => $"Order {Id} ({_lines.Count} lines, {Total:C})";
    }

    public static class OrderEndpoints
    {
        private const string Route = "/orders/{id:guid}";

        private static readonly string Help = @"
GET  /orders/{id}
POST /orders/{id}/pay
";

        public static async Task<IResult> GetOrder(Guid id, IOrderStore store, ILogger<Order> log, CancellationToken ct)
        {
            var order = await store.FindAsync(id, ct);
            if (order is null)
            {
                log.LogInformation("order {Id} not found", id);
                return Results.NotFound();
            }
            return Results.Ok(order);
        }

        public static async Task<IResult> Pay(Guid id, IOrderStore store, CancellationToken ct)
        {
            var order = await store.FindAsync(id, ct);
            if (order is null)
            {
                return Results.NotFound();
            }
            order.MarkPaid();
            await store.SaveAsync(order, ct);
            return Results.NoContent();
        }
    }

    public struct Money
    {
        public decimal Amount;
        public string Currency;

        public Money(decimal amount, string currency)
        {
            Amount = amount;
            Currency = currency;
        }
    }

    public delegate void OrderHandler(Order order);
}
