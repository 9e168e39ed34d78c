package app

import scala.util.Try

/** Greets people, Scala 3 style. */
class Greeter(name: String):
  def greet(): String =
    s"Hello, $name"

  def shout(): String = greet().toUpperCase

object Greeter:
  def parse(raw: String): Option[Greeter] =
    Try(raw.trim).toOption.filter(_.nonEmpty).map(Greeter(_))

@main def run(args: String*): Unit =
  args.flatMap(Greeter.parse).foreach(g => println(g.greet()))
