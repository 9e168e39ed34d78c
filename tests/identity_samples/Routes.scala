package com.example.api

import scala.concurrent.{ExecutionContext, Future}
import scala.util.{Failure, Success, Try}

/** Errors the API reports. */
sealed trait ApiError
final case class NotFound(id: Long) extends ApiError
final case class Invalid(reason: String) extends ApiError
case object Unavailable extends ApiError

trait Clock {
  def now(): Long
}

abstract class Repository[A](implicit ec: ExecutionContext) {
  def find(id: Long): Future[Option[A]]

  def findOrFail(id: Long): Future[Either[ApiError, A]] =
    find(id).map {
      case Some(a) => Right(a)
      case None    => Left(NotFound(id))
    }
}

/** HTTP routes for items. */
class ItemRoutes(repo: Repository[Item], clock: Clock)(implicit ec: ExecutionContext) {

  private val MaxPage = 100

  val prefix: String = "/items"

  var requests: Long = 0L

  def get(id: Long): Future[Either[ApiError, Item]] = {
    requests += 1
    repo.findOrFail(id)
  }

  def parsePage(raw: String): Either[ApiError, Int] =
    Try(raw.toInt) match {
      case Success(n) if n > 0 && n <= MaxPage => Right(n)
      case Success(_)                          => Left(Invalid(s"page out of range: $raw"))
      case Failure(_)                          => Left(Invalid("page is not a number"))
    }

  override def toString: String = s"ItemRoutes($prefix)"
}

object ItemRoutes {
  val Banner: String =
    """Items API
      |  GET /items/{id}
      |""".stripMargin

  def apply(repo: Repository[Item], clock: Clock)(implicit ec: ExecutionContext): ItemRoutes =
    new ItemRoutes(repo, clock)
}

final case class Item(id: Long, name: String, priceCents: Long) {
  def price: BigDecimal = BigDecimal(priceCents) / 100
}

object Item {
  implicit val ordering: Ordering[Item] = Ordering.by(_.id)
}

enum Color {
  case Red, Green, Blue
}

type ItemId = Long

def formatPrice(cents: Long): String = f"${cents / 100}%d.${cents % 100}%02d"
