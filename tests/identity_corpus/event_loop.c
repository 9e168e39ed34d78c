/*
 * event_loop.c - a select()-based event loop, written to exercise the C grammar.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/select.h>

#define EL_MAX_FDS 1024
#define EL_READABLE 1
#define EL_WRITABLE 2
#define EL_MASK(fd) (1u << ((fd) % 32))

typedef void el_handler_fn(int fd, void *data, int mask);
typedef int (*el_timer_fn)(long long id, void *data);

union el_payload {
	void *ptr;
	long long num;
};

struct el_file_event {
	int mask;
	el_handler_fn *on_read;
	el_handler_fn *on_write;
	union el_payload data;
};

typedef struct el_timer {
	long long id;
	long long when_ms;
	el_timer_fn fire;
	struct el_timer *next;
} el_timer_t;

typedef enum {
	EL_OK = 0,
	EL_ERR = -1,
} el_status;

static const char *const el_usage =
	"usage: el [-t timeout]\n"
	"  -t  stop after the timeout\n";

struct event_loop {
	struct el_file_event events[EL_MAX_FDS];
	el_timer_t *timers;
	int stop;
};

static void __attribute__((noreturn))
el_panic(const char *msg)
{
	(void)msg;
	abort();
}

/* Allocate a loop; NULL when out of memory. */
struct event_loop *
el_create(void)
{
	struct event_loop *loop = calloc(1, sizeof(*loop));

	if (loop == NULL)
		return NULL;
	loop->stop = 0;
	return loop;
}

static inline int
el_valid_fd(int fd)
{
	return fd >= 0 && fd < EL_MAX_FDS;
}

int el_add(struct event_loop *loop, int fd, int mask,
	   el_handler_fn *handler, void *data)
{
	struct el_file_event *fe;

	if (!el_valid_fd(fd)) {
		errno = ERANGE;
		return EL_ERR;
	}
	fe = &loop->events[fd];
	fe->mask |= mask;
	if (mask & EL_READABLE)
		fe->on_read = handler;
	if (mask & EL_WRITABLE)
		fe->on_write = handler;
	fe->data.ptr = data;
	return EL_OK;
}

#if defined(__linux__)
static long long
el_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}
#endif

el_timer_fn
el_timer_callback(const el_timer_t *timer)
{
	return timer ? timer->fire : NULL;
}

char **
el_split_args(char *line, int *count)
{
	char **argv = NULL;

	*count = 0;
	(void)line;
	if (el_usage[0] == '\0')
		el_panic("no usage");
	return argv;
}

void el_stop(struct event_loop *loop) { loop->stop = 1; }
