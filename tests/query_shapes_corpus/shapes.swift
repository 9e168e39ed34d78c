import Foundation

struct Point { var x: Double; var y: Double }
enum Direction { case north, south }
class Vehicle { func drive() {} }
final class Car: Vehicle { override func drive() {} }
extension Point { func length() -> Double { 0 } }
extension Swift.Array { func second() -> Element? { nil } }
extension Outer.Inner.Leaf { func deep() {} }
extension Array where Element == Int { func total() -> Int { 0 } }
protocol Drawable { func draw(); var name: String { get } }
typealias Handler = (Int) -> Void
actor Counter { var count = 0; func increment() { count += 1 } }

class Store {
    let id: Int
    var items: [String] = []
    var (a, b) = (1, 2)
    lazy var cache = [String: Int]()
    static let shared = Store(id: 0)
    var computed: Int { items.count }
    init(id: Int) { self.id = id }
    convenience init() { self.init(id: 1) }
    deinit { print("bye") }
    subscript(index: Int) -> String { items[index] }
    func add(_ item: String) { let local = item; items.append(local) }
    private func helper() -> Int { 1 }
    @objc dynamic func exposed() {}
}

func topLevel(value: Int) -> Int { value }
func generic<T: Equatable>(_ a: T, _ b: T) -> Bool { a == b }
let constant = 42
var variable = "x"
