// Declarator shapes the C++ definitions patterns walk (query_shapes.py matches them in Python).
#include <vector>
#include <string>

namespace outer { namespace inner {
struct Point { int x; int y; };
} }

namespace a::b {
class Widget {
public:
    Widget();
    ~Widget();
    int size() const { return n_; }
    int* data() { return &n_; }
    int& ref() { return n_; }
    const int** twice() { return nullptr; }
    bool operator==(const Widget& other) const { return n_ == other.n_; }
    operator bool() const { return n_ != 0; }
    template <typename T> T as() const { return T(n_); }
    virtual void draw() override {}
    static Widget make() { return Widget(); }
private:
    int n_ = 0;
};
}

a::b::Widget::Widget() : n_(1) {}
a::b::Widget::~Widget() {}
int a::b::Widget::count(int x) { return x; }
int* a::b::Widget::pointer() { return nullptr; }
int& a::b::Widget::reference() { static int v; return v; }
int** a::b::Widget::pointers() { return nullptr; }
bool a::b::Widget::operator<(const Widget& o) const { return false; }
std::vector<int> outer::inner::Point::values() { return {}; }
template <typename T> void Box<T>::put(T value) { items.push_back(value); }
template <typename T> T* Box<T>::get(int i) { return &items[i]; }
void one::two::three::Four::deep() {}
void one::two::three::four::Five::deeper() {}
auto Shape::area() const -> double { return 0.0; }
Shape::operator int() const { return 0; }
int (*pick(int which))(int) { return nullptr; }
static inline int add(int a, int b) { return a + b; }
int * /* comment */ pointer_with_comment(void) { return 0; }
const char** names() { return nullptr; }
int&& moved() { static int v; return static_cast<int&&>(v); }
void (*signal_handler(int sig))(int) { return nullptr; }
int *const *twisted() { return nullptr; }
[[nodiscard]] int attributed() { return 1; }
extern "C" int c_linkage(int x) { return x; }

class Outer {
    class Inner {
        void method() {}
        int* pm() { return nullptr; }
        ~Inner() {}
    };
    struct Data { int v; };
    union Raw { int i; float f; };
    enum Kind { A, B };
    enum class Mode { On, Off };
};

typedef struct { int a; } Anonymous;
typedef struct Tagged { int a; } Tagged_t;
typedef int Number;
using Alias = std::vector<int>;
struct Forward;
class Declared;
template <typename T> class Box { std::vector<T> items; void put(T value); };
