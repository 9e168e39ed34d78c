package com.example.inventory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Stock levels per warehouse.
 *
 * <p>Thread-safe; reservations expire after {@link #RESERVATION_TTL_SECONDS}.
 */
@Service
public class InventoryService implements StockQuery {

    private static final Logger log = LoggerFactory.getLogger(InventoryService.class);

    public static final long RESERVATION_TTL_SECONDS = 900;

    private final StockRepository repository;
    private final Clock clock;
    private final Map<String, Integer> reserved = new ConcurrentHashMap<>();

    public InventoryService(StockRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    public InventoryService(StockRepository repository) {
        this(repository, Clock.systemUTC());
    }

    @Override
    public Optional<Integer> available(String sku) {
        return repository.findBySku(sku)
                .map(stock -> stock.quantity() - reserved.getOrDefault(sku, 0));
    }

    /**
     * Reserves {@code quantity} units of {@code sku}.
     *
     * @return whether the reservation succeeded
     */
    @Transactional
    public boolean reserve(String sku, int quantity) {
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive");
        }
        int free = available(sku).orElse(0);
        if (free < quantity) {
            log.info("cannot reserve {} x {}: {} free", quantity, sku, free);
            return false;
        }
        reserved.merge(sku, quantity, Integer::sum);
        return true;
    }

    @SuppressWarnings("unused")
    private String describe() {
        return """
            InventoryService
              reserved: %d skus
            """.formatted(reserved.size());
    }

    public record Stock(String sku, int quantity) {

        public Stock {
            if (quantity < 0) {
                throw new IllegalArgumentException("negative stock");
            }
        }

        public boolean isEmpty() {
            return quantity == 0;
        }
    }

    public enum Status {
        IN_STOCK("in stock"),
        LOW("low"),
        OUT("out of stock");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        static Status of(int quantity) {
            return quantity == 0 ? OUT : quantity < 5 ? LOW : IN_STOCK;
        }
    }

    static final class Reservation {
        final String sku;
        final int quantity;

        Reservation(String sku, int quantity) {
            this.sku = sku;
            this.quantity = quantity;
        }
    }
}

interface StockQuery {

    Optional<Integer> available(String sku);

    default boolean inStock(String sku) {
        return available(sku).orElse(0) > 0;
    }
}

interface StockRepository {
    Optional<InventoryService.Stock> findBySku(String sku);

    List<InventoryService.Stock> findAll();
}

@interface Audited {
    String value() default "";
}
