<?php
namespace App\Models {
    interface HasArea { public function area(): float; }
    trait Loggable { public function log(string $m): void {} }
    enum Suit: string { case Hearts = 'H'; }

    class Circle implements HasArea
    {
        use Loggable;
        const PI = 3.14;
        const A = 1, B = 2;
        public float $radius;
        private $x, $y;
        public static ?Circle $instance = null;
        public function __construct(float $radius) { $this->radius = $radius; }
        public function area(): float { return self::PI * $this->radius ** 2; }
        public static function make(): static { return new static(1.0); }
    }

    function helper(int $x): int { return $x; }
}
