// useCart.ts: the cart store of the shop front end (items, totals, persistence).
import { create } from "zustand";
import { persist } from "zustand/middleware";
import type { Product } from "./types";

export interface CartItem {
  product: Product;
  quantity: number;
}

interface CartState {
  items: CartItem[];
  coupon: string | null;
}

export function addItem(state: CartState, product: Product, quantity: number): CartState {
  if (quantity <= 0) {
    throw new Error("quantity must be positive");
  }
  const existing = state.items.find((item) => item.product.id === product.id);
  const items = existing
    ? state.items.map((item) => (item === existing ? { ...item, quantity: item.quantity + quantity } : item))
    : [...state.items, { product, quantity }];
  return { ...state, items };
}

export function removeItem(state: CartState, productId: string): CartState {
  const items = state.items.filter((item) => item.product.id !== productId);
  const coupon = items.length === 0 ? null : state.coupon;
  return { ...state, items, coupon };
}

// The total in cents, after the coupon's discount.
export function total(state: CartState): number {
  const gross = state.items.reduce((sum, item) => sum + item.product.priceCents * item.quantity, 0);
  const discount = state.coupon === "WELCOME10" ? Math.round(gross * 0.1) : 0;
  const net = Math.max(0, gross - discount);
  return net;
}

export class CartStorage {
  private readonly key: string;

  constructor(key: string) {
    this.key = key;
  }

  load(): CartState {
    const raw = window.localStorage.getItem(this.key);
    if (raw === null) {
      return { items: [], coupon: null };
    }
    const parsed = JSON.parse(raw) as CartState;
    return parsed;
  }

  save(state: CartState): void {
    const raw = JSON.stringify(state);
    window.localStorage.setItem(this.key, raw);
    console.info(`cart saved (${state.items.length} items)`);
  }
}

export const useCart = create<CartState>()(persist(() => ({ items: [], coupon: null }), { name: "cart" }));
