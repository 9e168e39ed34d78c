//! Items the Rust patterns match in Python below their root.
use std::fmt;

pub struct Point { x: i32, y: i32 }
pub struct Unit;
pub struct Tuple(i32, i32);
union Bits { i: u32, f: f32 }
pub enum Shape { Circle(f64), Square(f64) }
pub trait Draw { fn draw(&self); fn name(&self) -> &str { "shape" } }
pub type Result<T> = std::result::Result<T, Error>;
mod inner { pub fn helper() {} }
mod declared;
macro_rules! square { ($x:expr) => { $x * $x }; }
const LIMIT: usize = 10;
static NAME: &str = "items";

impl Point {
    pub fn new(x: i32, y: i32) -> Self { Point { x, y } }
    fn norm(&self) -> f64 { 0.0 }
}
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "{}", self.x) }
}
impl<T> Wrapper<T> { fn get(&self) -> &T { &self.0 } }
impl<T: Clone> Clone for Wrapper<T> { fn clone(&self) -> Self { Wrapper(self.0.clone()) } }
impl std::ops::Add for crate::geo::Vector { type Output = Self; fn add(self, o: Self) -> Self { o } }
impl<'a> From<&'a str> for &'a Token { fn from(s: &'a str) -> Self { todo!() } }
impl Draw for &Point { fn draw(&self) {} }
impl Draw for &Vec<Point> { fn draw(&self) {} }
impl Draw for Box<dyn Draw> { fn draw(&self) {} }
impl Draw for [Point; 2] { fn draw(&self) {} }
impl Draw for (i32, i32) { fn draw(&self) {} }
impl<T> Draw for Option<T> where T: Draw { fn draw(&self) {} }
impl dyn Draw { fn boxed(&self) {} }
unsafe impl Send for Point {}
impl module::Scoped { fn scoped(&self) {} }
impl module::Generic<T> { fn generic(&self) {} }

fn free<T: fmt::Debug>(value: T) -> String { format!("{:?}", value) }
async fn later() {}
pub(crate) unsafe extern "C" fn exported() {}
extern "C" { fn ffi(x: i32) -> i32; }

fn outer() {
    fn nested() {}
    struct Local;
    impl Local { fn local(&self) {} }
}
