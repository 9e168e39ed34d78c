// Class members and declarations the TypeScript patterns match in Python below their root.
import { Injectable } from "./di";

export function format(value: number): string;
export function format(value: string): string;
export function format(value: unknown): string {
  return String(value);
}

function* counter(): Generator<number> {
  yield 1;
}

@Injectable()
export class Service<T> extends Base implements Api {
  static instances = 0;
  readonly name: string = "service";
  private cache = new Map<string, T>();
  #secret = 42;
  declare ambient: number;
  protected optional?: string;
  definite!: number;
  accessor level = 1;
  ["computed"] = 3;
  "quoted-name" = 4;
  42 = "numeric";
  handler = () => this.name;
  onClick = async (event: Event): Promise<void> => {};
  legacy = function (this: Service<T>) { return 1; };
  typed: () => void = () => {};
  @Input() decorated = (x: number) => x * 2;
  /* a comment */ commented = () => 1;

  constructor(private readonly dep: Dep) {
    super();
  }

  get size(): number { return this.cache.size; }
  set size(value: number) {}
  static create(): Service<unknown> { return new Service(new Dep()); }
  async load(id: string): Promise<T | undefined> { return this.cache.get(id); }
  *items(): Iterable<T> { yield* this.cache.values(); }
  #hidden(): void {}
  ["dynamic"](): void {}

  overloaded(a: string): void;
  overloaded(a: number): void;
  overloaded(a: unknown): void {}
}

export abstract class Shape {
  abstract area(): number;
  abstract get label(): string;
  protected abstract readonly sides: number;
  describe(): string { return `${this.area()}`; }
}

export interface Api {
  fetch(id: string): Promise<void>;
  readonly version: number;
}

export type Id = string | number;
export enum Color { Red, Green }
export const enum Flags { A = 1, B = 2 }
declare enum Ambient { X }

namespace Outer.Inner {
  export function helper() {}
  export class Nested {}
}
declare module "external-module" {
  export function ext(): void;
}
declare global {
  interface Window { app: unknown }
}
module Legacy {
  export const value = 1;
}

const literal = {
  method() { return 1; },
  arrow: () => 2,
};

const Expr = class Named {
  inner() {}
};

function outer() {
  class Local {
    field = () => 1;
    method() {}
  }
  return Local;
}

export default class {
  anonymous() {}
}
