class Broken {
  field = () => {
  method() {}
}

function after(x: number {
  return x;
}

export class Later {
  ok() {}
}
