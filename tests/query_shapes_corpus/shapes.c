#include <stdio.h>

typedef struct { int x; int y; } point_t;
typedef struct node { struct node *next; } node_t;
typedef enum { RED, GREEN } color_t;
typedef union { int i; float f; } value_t;
typedef int (*callback_t)(int);
typedef unsigned long size_type;

struct list { node_t *head; };
union number { int i; double d; };
enum mode { ON, OFF };
struct forward;

static int add(int a, int b) { return a + b; }
char *name(void) { return "x"; }
char **names(void) { return 0; }
const char ***triple(void) { return 0; }
int (*pick(int which))(int) { return 0; }
void
on_its_own_line(void)
{
}
int prototype(int);
