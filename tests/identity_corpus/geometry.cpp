// geometry.cpp - shapes, a registry and a few templates, to exercise the C++ grammar.
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

extern "C" {
int legacy_area(int w, int h) { return w * h; }
}

namespace geo {
inline namespace v2 {

struct Point {
    double x = 0;
    double y = 0;

    Point operator+(const Point& other) const { return {x + other.x, y + other.y}; }
    bool operator==(const Point&) const = default;
};

enum class Kind : unsigned char { Circle, Rect };

/**
 * A shape with an area.
 */
class Shape {
public:
    explicit Shape(std::string name) : name_(std::move(name)) {}
    virtual ~Shape() = default;
    Shape(const Shape&) = delete;

    [[nodiscard]] virtual double area() const = 0;
    const std::string& name() const noexcept { return name_; }

    class Visitor {
    public:
        virtual void visit(const Shape& shape) = 0;
        virtual ~Visitor() = default;
    };

protected:
    std::string name_;
};

class Circle final : public Shape {
public:
    Circle(Point center, double radius);
    [[nodiscard]] double area() const override;

private:
    Point center_;
    double radius_;
};

template <typename T, typename Compare = std::less<T>>
class SortedVector {
public:
    void insert(const T& value);
    const T& operator[](std::size_t i) const { return items_[i]; }

private:
    std::vector<T> items_;
};

using ShapePtr = std::unique_ptr<Shape>;
typedef std::map<std::string, ShapePtr> Registry;

}  // namespace v2
}  // namespace geo

namespace geo::v2 {

Circle::Circle(Point center, double radius)
    : Shape("circle"), center_(center), radius_(radius) {}

double Circle::area() const {
    return M_PI * radius_ * radius_;
}

template <typename T, typename Compare>
void SortedVector<T, Compare>::insert(const T& value) {
    auto it = std::lower_bound(items_.begin(), items_.end(), value, Compare{});
    items_.insert(it, value);
}

}  // namespace geo::v2

static const char* kBanner = R"(
  geometry
    v2
)";

geo::Point
operator*(const geo::Point& p, double k)
{
    return {p.x * k, p.y * k};
}

void geo::v2::Shape::Visitor::visit(const Shape& shape) {
    (void)shape;
}

template <>
double clamp_area<double>(double value) {
    return value < 0 ? 0 : value;
}

constexpr int square(int v) { return v * v; }

int main() {
    auto describe = [](const geo::Shape& s) { return s.name(); };
    (void)describe;
    (void)kBanner;
    return square(2) - 4;
}
