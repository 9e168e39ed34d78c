module Billing
  VERSION = "1.0"
  ROLES = %w[admin editor]

  class Invoice < Base
    TAX = 0.2
    attr_reader :total

    def initialize(total)
      @total = total
      local = total
      CONST_IN_METHOD = 1 rescue nil
    end

    def self.build(*args) = new(*args)
    def Invoice.parse(text); end
    def to_s; "invoice"; end
    def ==(other) = total == other.total
    def valid?; true; end
    def save!; end
  end

  class Admin::Auth::Token
    def check; end
  end

  module Utils::Text
    def self.slug(s) = s
  end
end

def Shop.version; "1"; end
def top_level(x) x end
class << self
  def meta; end
end
Billing::Invoice::LIMIT = 5
a, B = 1, 2
