import React from "react";

interface Props {
  items: { name: string; price: number }[];
}

export function CartRow({ name, price }: { name: string; price: number }) {
  return (
    <tr>
      <td>{name}</td>
      <td>{(price / 100).toFixed(2)}</td>
    </tr>
  );
}

export default function CartView({ items }: Props) {
  return (
    <table>
      <tbody>
        {items.map((item) => (
          <CartRow key={item.name} {...item} />
        ))}
      </tbody>
    </table>
  );
}
