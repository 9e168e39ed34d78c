impl Broken {
    fn ok(&self) {}
    fn missing(&self {
}

fn after() -> i32 { 1 }
struct Later { x: i32
