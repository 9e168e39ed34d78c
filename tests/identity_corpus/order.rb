# frozen_string_literal: true

=begin
Orders: a module with nested classes, to exercise the Ruby grammar.
=end

module Shop
  module Pricing
    TAX_RATE = 0.2

    def self.with_tax(amount) = (amount * (1 + TAX_RATE)).round(2)
  end

  class Order
    include Comparable
    attr_reader :lines, :state

    STATES = %i[draft placed shipped].freeze
    Line = Struct.new(:sku, :quantity, :price) do
      def total
        quantity * price
      end
    end

    class << self
      def build(lines = [])
        new(lines: lines)
      end

      private

      def audit(order)
        Rails.logger.info("order #{order.object_id}")
      end
    end

    def initialize(lines: [], state: :draft)
      @lines = lines
      @state = state
    end

    def <=>(other)
      total <=> other.total
    end

    def [](sku)
      lines.find { |line| line.sku == sku }
    end

    def total
      lines.sum(&:total)
    end

    def place!
      raise ArgumentError, "empty order" if lines.empty?

      @state = :placed
      self
    end

    def placed? = state == :placed

    def receipt
      <<~TEXT
        Order total: #{Pricing.with_tax(total)}
        Lines: #{lines.size}
      TEXT
    end

    def method_missing(name, *args, &block)
      return lines.public_send(name, *args, &block) if lines.respond_to?(name)

      super
    end

    def respond_to_missing?(name, include_private = false)
      lines.respond_to?(name) || super
    end

    private def ensure_draft!
      raise "not a draft" unless state == :draft
    end
  end

  class Shop::Refund < StandardError
    def message
      "refund failed"
    end
  end
end

def Shop.version
  "1.0"
end
