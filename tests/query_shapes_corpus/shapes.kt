package demo

import kotlin.math.max

interface Shape { fun area(): Double }
enum class Color { RED, GREEN }
data class Point(val x: Int, val y: Int)
sealed class Result { object Empty : Result() }
abstract class Base<T> { abstract fun make(): T }
object Registry { val items = mutableListOf<String>() }
typealias Names = List<String>

class Service(private val repo: Repo) : Base<Int>() {
    val name: String = "svc"
    var count = 0
    private val (first, second) = Pair(1, 2)
    constructor() : this(Repo())
    override fun make(): Int = 1
    fun process(input: String): String { val local = input; return local }
    companion object Factory { fun create() = Service() }
    companion object { const val TAG = "svc" }
    inner class Inner { fun inside() {} }
}

fun String.shout(): String = uppercase()
fun List<Int>?.safeSum(): Int = this?.sum() ?: 0
fun com.example.Widget.extended() {}
fun topLevel(a: Int, b: Int) = max(a, b)
val top = 1
