package com.example.shop.checkout

import androidx.lifecycle.ViewModel
import androidx.lifecycle.viewModelScope
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.flow.update
import kotlinx.coroutines.launch

/** What the checkout screen shows. */
data class CheckoutState(
    val items: List<CartItem> = emptyList(),
    val loading: Boolean = false,
    val error: String? = null,
) {
    val total: Long
        get() = items.sumOf { it.priceCents * it.quantity }
}

data class CartItem(val sku: String, val quantity: Int, val priceCents: Long)

sealed class CheckoutEvent {
    data class Add(val item: CartItem) : CheckoutEvent()
    data class Remove(val sku: String) : CheckoutEvent()
    object Pay : CheckoutEvent()
}

interface PaymentGateway {
    suspend fun charge(amountCents: Long): Result<String>

    fun currency(): String = "EUR"
}

enum class PaymentMethod(val label: String) {
    CARD("Card"),
    PAYPAL("PayPal");

    fun isCard(): Boolean = this == CARD
}

class CheckoutViewModel(
    private val gateway: PaymentGateway,
) : ViewModel() {

    private val _state = MutableStateFlow(CheckoutState())
    val state: StateFlow<CheckoutState> = _state.asStateFlow()

    var method: PaymentMethod = PaymentMethod.CARD
        set(value) {
            field = value
            _state.update { it.copy(error = null) }
        }

    constructor(gateway: PaymentGateway, initial: List<CartItem>) : this(gateway) {
        _state.value = CheckoutState(items = initial)
    }

    fun onEvent(event: CheckoutEvent) {
        when (event) {
            is CheckoutEvent.Add -> _state.update { it.copy(items = it.items + event.item) }
            is CheckoutEvent.Remove -> _state.update { state ->
                state.copy(items = state.items.filterNot { it.sku == event.sku })
            }
            CheckoutEvent.Pay -> pay()
        }
    }

    private fun pay() {
        viewModelScope.launch {
            _state.update { it.copy(loading = true) }
            val result = gateway.charge(_state.value.total)
            _state.update {
                it.copy(loading = false, error = result.exceptionOrNull()?.message)
            }
        }
    }

    companion object {
        const val MAX_ITEMS = 50

        fun receipt(state: CheckoutState): String = """
            |Receipt
            |  items: ${state.items.size}
            |  total: ${state.total}
        """.trimMargin()
    }
}

object Formatter {
    fun cents(value: Long): String = "%d.%02d".format(value / 100, value % 100)
}

typealias Cart = List<CartItem>

fun Cart.totalQuantity(): Int = sumOf { it.quantity }

val EmptyCart: Cart = emptyList()
