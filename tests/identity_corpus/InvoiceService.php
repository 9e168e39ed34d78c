<?php

declare(strict_types=1);

namespace App\Billing;

use App\Models\Invoice;
use Psr\Log\LoggerInterface;

interface Payable
{
    public const CURRENCY = 'EUR';

    public function amount(): int;
}

abstract class Document
{
    abstract protected function number(): string;

    public function title(): string
    {
        return static::class . ' ' . $this->number();
    }
}

trait Timestamps
{
    protected ?\DateTimeImmutable $createdAt = null;

    abstract public function touch(): void;
}

enum InvoiceState: string implements \JsonSerializable
{
    case Open = 'open';
    case Paid = 'paid';

    public function label(): string
    {
        return match ($this) {
            self::Open => 'Open',
            self::Paid => 'Paid',
        };
    }

    public function jsonSerialize(): mixed
    {
        return $this->value;
    }
}

/**
 * Creates and sends invoices.
 */
#[\Attribute]
#[Service(shared: true)]
final class InvoiceService extends Document implements Payable
{
    use Timestamps;

    private static int $sequence = 0;

    public function __construct(
        private readonly LoggerInterface $logger,
        private int $amount = 0,
    ) {
    }

    public static function nextNumber(): int
    {
        return ++self::$sequence;
    }

    public function amount(): int
    {
        return $this->amount;
    }

    protected function number(): string
    {
        return sprintf('INV-%05d', self::nextNumber());
    }

    public function touch(): void
    {
        $this->createdAt = new \DateTimeImmutable();
    }

    #[Deprecated]
    #[Route('/invoices/{id}', methods: ['POST'])]
    public function send(Invoice $invoice): bool
    {
        $body = <<<HTML
            <p>Invoice {$invoice->id}</p>
            <p>Total: {$this->amount}</p>
            HTML;
        $raw = <<<'TXT'
            no $interpolation here
            TXT;
        $this->logger->info('sent', ['body' => $body, 'raw' => $raw]);

        return array_reduce([1, 2], fn (int $carry, int $n): int => $carry + $n, 0) > 0;
    }
}

function format_cents(int $cents): string
{
    return number_format($cents / 100, 2);
}
