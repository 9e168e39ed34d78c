using System;

namespace Demo.Shapes
{
    public interface IShape { double Area(); }
    public struct Point { public int X; public int Y; }
    public enum Color { Red, Green }
    public record Person(string Name);
    public delegate void Handler(object sender);

    public class Circle : IShape
    {
        private readonly double radius;
        private int a, b;
        public event EventHandler Changed;
        public event EventHandler First, Second;
        public static int Count { get; set; }
        public Circle(double radius) { this.radius = radius; }
        ~Circle() { }
        public double Area() => Math.PI * radius * radius;
        public override string ToString() { return "circle"; }
        public T Convert<T>() where T : new() => new T();
        public static Circle operator +(Circle x, Circle y) => x;
        public int this[int i] => i;
        class Nested { void Inner() { } }
    }
}

namespace Other;
class FileScoped { void M() { } }
