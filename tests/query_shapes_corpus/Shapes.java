package demo.shapes;

import java.util.List;

@FunctionalInterface
interface Area { double area(); default String unit() { return "m2"; } int SIDES = 0, CORNERS = 0; String NAME = "area"; }

@interface Marker { String value() default ""; }

public record Point(int x, int y) {
    public Point { if (x < 0) throw new IllegalArgumentException(); }
    static Point origin() { return new Point(0, 0); }
}

enum Color {
    RED, GREEN;
    private final int code = 1;
    private int a, b;
    Color() {}
    int code() { return code; }
}

public abstract class Shape<T extends Number> implements Area {
    protected static final int LIMIT = 10;
    private int width, height;
    private final List<String> tags = List.of();
    @Deprecated private String old;

    public Shape() { this(1); }
    protected Shape(int width) { this.width = width; }

    @Override
    public double area() { return width * height; }
    public abstract T measure();
    public <R> R convert(java.util.function.Function<T, R> f) { return f.apply(measure()); }
    synchronized void lock() {}

    static class Inner { void inside() {} int[] values = {1, 2}; }
    class Anon { Runnable r = new Runnable() { public void run() {} }; }
}
