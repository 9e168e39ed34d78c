package demo

import scala.util.Try

class Account(val id: Int) { def balance: BigDecimal = 0; val owner = "me"; var status = 1 }
case class Point(x: Int, y: Int)
object Account { def apply(id: Int) = new Account(id); val (a, b) = (1, 2) }
trait Greeter { def greet(name: String): String; val prefix: String; var mutable: Int }
enum Color { case Red, Green }
type Amount = BigDecimal
package object util { def helper() = 1 }
given ordering: Ordering[Int] = Ordering.Int
def topLevel(x: Int): Int = x + 1
val answer = 42
var counter = 0
abstract class Shape { def area(): Double }
