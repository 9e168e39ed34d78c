import React, { memo, forwardRef } from "react";

type Props = { title: string };

export function Header({ title }: Props) {
  return <h1>{title}</h1>;
}

export const Footer = memo(() => <footer />);
export const Input = forwardRef<HTMLInputElement, Props>(function Input(props, ref) {
  return <input ref={ref} />;
});

export class Panel extends React.Component<Props> {
  state = { open: false };
  toggle = () => this.setState({ open: !this.state.open });
  render() {
    return <div onClick={this.toggle}>{this.props.title}</div>;
  }
}

interface Layout { children: React.ReactNode }
export default function Page({ children }: Layout) {
  const inner = () => <span />;
  return <main>{children}</main>;
}

enum Tone { Light, Dark }
namespace Theme { export const dark = true; }
