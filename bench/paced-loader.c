// A paced HTTP/1.1 load generator for bench/hot-path.mjs --loader c (see bench/README.md, "a load generator
// in C"). Built by bench/paced-loader.mjs with the machine's cc; nothing else uses it.
//
// Why not autocannon for the paced runs: on a 2-core machine the load generator shares the CPUs with the
// server it measures. autocannon costs tens of µs of JavaScript per request and its loop stops for GC (9–34 ms
// a run, bench/README.md "twentieth session"); every such stop makes requests late that the server never saw.
// This one costs a few µs per request and has no collector.
//
//   paced-loader --port P --requests FILE --duration S [--rate R] [--warmup S]
//                [--expect-body TEXT] [--expect-header TEXT]
//
// FILE: uint32 LE connection count, then for each connection a uint32 request count and, for each request, a
// uint32 byte length and the raw request (bench/paced-loader.mjs writes it). The lists' count is the number of
// connections opened at the start; each send takes the next request of all the lists in turn, so a run never
// repeats a request unless it sends more than the file holds.
//
// --rate R (requests/s over all connections): request k is due at t0 + k/R and goes out on a free connection
// (the next after the last one used) when it is due, or as soon as one is free when none was: visitors who
// arrive while every connection waits for an answer queue, as they would at a server, and none is dropped.
// (A schedule of its own for each connection, as autocannon's rate has, is not what visitors do: at 80 % of
// saturation a connection then runs at 80 % of its own round trip's speed, and a round trip a little slower
// for a while makes that connection late with no answer being slow; bench/README.md.) Each answer is timed
// from its request's due time ("from due": what a visitor meets, coordinated omission included) and from its
// send. Requests that came due and were not sent by the end are counted as `owedAtEnd` and enter "from due"
// with the time they had waited by then.
// `meanInFlight` (the answers' time from the send summed, over the measured time) says how many connections
// were busy on average: near their number, requests waited for a free connection in the loader rather than for
// the server, and the run needs more connections (bench/hot-path.mjs runs it again with more).
// --warmup S: the schedule (or the closed loop) starts S seconds before the measured duration; requests due
// before it are answered and checked but left out of the figures (`warmupFromDueMs` shows them): the
// connections are made and the server is past the start of the load, as visitors of a running ad meet it.
// Without --rate: closed loop, each connection sends its next request on its answer (saturation).
//
// An answer counts as bad unless its status is 2xx, its headers hold --expect-header (case-insensitive) and
// its body holds --expect-body. Prints one JSON object on stdout.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  const char *data;
  uint32_t len;
} request_t;

typedef struct {
  int fd;
  int connected;
  int in_flight;
  request_t *req;      // the request in flight
  size_t written;     // bytes of the request in flight written so far
  int64_t due, sent;  // of the request in flight
  int64_t idle_since; // when the connection last became free to send
  char *buf;
  size_t buf_len, buf_cap;
} conn_t;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void die(const char *what) {
  fprintf(stderr, "paced-loader: %s: %s\n", what, strerror(errno));
  exit(2);
}

// Latencies in µs, grown as needed.
typedef struct {
  uint32_t *v;
  size_t n, cap;
} samples_t;

static void add_sample(samples_t *s, int64_t ns) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 65536;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
    if (!s->v) die("realloc");
  }
  int64_t us = ns / 1000;
  s->v[s->n++] = us < 0 ? 0 : (uint32_t)(us > 0xffffffffLL ? 0xffffffffLL : us);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void print_percentiles(const char *name, samples_t *s) {
  if (s->n == 0) {
    printf("\"%s\":null", name);
    return;
  }
  qsort(s->v, s->n, sizeof *s->v, cmp_u32);
  double q[] = {0.5, 0.9, 0.99, 0.999, 1.0};
  const char *k[] = {"p50", "p90", "p99", "p999", "max"};
  printf("\"%s\":{", name);
  for (int i = 0; i < 5; i++) {
    size_t at = (size_t)(q[i] * (double)s->n + 0.999999);
    if (at < 1) at = 1;
    if (at > s->n) at = s->n;
    printf("\"%s\":%.1f,", k[i], s->v[at - 1] / 1000.0);
  }
  printf("\"count\":%zu}", s->n);
}

// Per 50-ms window of the run: the longest answer from due and from send, to find when the server stopped.
#define WINDOW_NS 50000000LL
typedef struct {
  uint32_t max_due_us, max_send_us, answers, index;
} window_t;
static window_t *windows;
static size_t nwindows;

static void note_window(int64_t since_t0, int64_t due_ns, int64_t send_ns) {
  size_t w = since_t0 < 0 ? 0 : (size_t)(since_t0 / WINDOW_NS);
  if (w >= nwindows) w = nwindows - 1;
  window_t *x = &windows[w];
  uint32_t d = (uint32_t)(due_ns / 1000), s = (uint32_t)(send_ns / 1000);
  if (d > x->max_due_us) x->max_due_us = d;
  if (s > x->max_send_us) x->max_send_us = s;
  x->answers++;
}

static int cmp_window(const void *a, const void *b) {
  uint32_t x = ((const window_t *)a)->max_due_us, y = ((const window_t *)b)->max_due_us;
  return x > y ? -1 : x < y;
}

static const char *arg_port, *arg_file, *arg_body, *arg_header;
static double arg_duration, arg_rate, arg_warmup;

// Every request of the file, in its order; each send takes the next (the list is cycled).
static request_t *all;
static size_t nall, cursor;


static struct sockaddr_in server_addr;
static int epfd;
static long errors, non2xx, bad, answered, sent_count, reconnects;
static char bad_sample[160];

static void open_conn(conn_t *c) {
  c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (c->fd < 0) die("socket");
  int one = 1;
  setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (connect(c->fd, (struct sockaddr *)&server_addr, sizeof server_addr) < 0 && errno != EINPROGRESS)
    die("connect");
  c->connected = 0;
  c->in_flight = 0;
  c->buf_len = 0;
  struct epoll_event ev = {.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP, .data.ptr = c};
  if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev) < 0) die("epoll_ctl");
}

static void broken(conn_t *c) {
  // The request in flight gets no answer: an error, as autocannon counts it; the connection is made again.
  if (c->in_flight) errors++;
  epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  reconnects++;
  open_conn(c);
}

static void want_write(conn_t *c, int on) {
  struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | (on ? EPOLLOUT : 0), .data.ptr = c};
  epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void flush(conn_t *c) {
  request_t *r = c->req;
  while (c->written < r->len) {
    ssize_t w = write(c->fd, r->data + c->written, r->len - c->written);
    if (w < 0) {
      if (errno == EAGAIN) {
        want_write(c, 1);
        return;
      }
      broken(c);
      return;
    }
    c->written += (size_t)w;
  }
  want_write(c, 0);
}

static void send_next(conn_t *c, int64_t due, int64_t now) {
  c->due = due;
  c->sent = now;
  c->in_flight = 1;
  c->written = 0;
  c->req = &all[cursor++ % nall];
  sent_count++;
  flush(c);
}

// Parses one whole answer at the start of c->buf: its length, or 0 while it is not all there.
static size_t whole_answer(conn_t *c, int *status, int *header_ok, int *body_ok) {
  char *end = memmem(c->buf, c->buf_len, "\r\n\r\n", 4);
  if (!end) return 0;
  size_t head = (size_t)(end - c->buf) + 4;
  char saved = c->buf[head - 1];
  c->buf[head - 1] = '\0'; // the headers as one string (the byte is the last '\n')
  *status = atoi(c->buf + 9);
  *header_ok = !arg_header || strcasestr(c->buf, arg_header) != NULL;
  size_t body_len = 0;
  int chunked = strcasestr(c->buf, "\ntransfer-encoding: chunked") != NULL;
  char *cl = strcasestr(c->buf, "\ncontent-length:");
  c->buf[head - 1] = saved;
  if (chunked) {
    size_t at = head;
    for (;;) {
      char *crlf = memmem(c->buf + at, c->buf_len - at, "\r\n", 2);
      if (!crlf) return 0;
      size_t size = strtoul(c->buf + at, NULL, 16);
      at = (size_t)(crlf - c->buf) + 2 + size + 2;
      if (at > c->buf_len) return 0;
      if (size == 0) break;
    }
    *body_ok = !arg_body || memmem(c->buf + head, at - head, arg_body, strlen(arg_body)) != NULL;
    return at;
  }
  if (cl) body_len = strtoul(cl + 16, NULL, 10);
  if (c->buf_len < head + body_len) return 0;
  *body_ok = !arg_body || memmem(c->buf + head, body_len, arg_body, strlen(arg_body)) != NULL;
  return head + body_len;
}

int main(int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--port")) arg_port = argv[i + 1];
    else if (!strcmp(argv[i], "--requests")) arg_file = argv[i + 1];
    else if (!strcmp(argv[i], "--duration")) arg_duration = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--rate")) arg_rate = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--warmup")) arg_warmup = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--expect-body")) arg_body = argv[i + 1];
    else if (!strcmp(argv[i], "--expect-header")) arg_header = argv[i + 1];
    else {
      fprintf(stderr, "paced-loader: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (!arg_port || !arg_file || arg_duration <= 0) {
    fprintf(stderr, "usage: paced-loader --port P --requests FILE --duration S [--rate R] ...\n");
    return 2;
  }

  FILE *f = fopen(arg_file, "rb");
  if (!f) die(arg_file);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *file = malloc((size_t)size);
  if (!file || fread(file, 1, (size_t)size, f) != (size_t)size) die("read requests");
  fclose(f);
  size_t at = 0;
#define U32() (at += 4, *(uint32_t *)(file + at - 4))
  uint32_t nconn = U32();
  conn_t *conns = calloc(nconn, sizeof *conns);
  all = malloc(((size_t)size / 4 + 1) * sizeof *all); // a request takes at least 4 bytes of the file
  for (uint32_t i = 0; i < nconn; i++) {
    uint32_t n = U32();
    for (uint32_t k = 0; k < n; k++) {
      all[nall].len = U32();
      all[nall++].data = file + at;
      at += all[nall - 1].len;
    }
  }
  for (uint32_t i = 0; i < nconn; i++) {
    conns[i].buf_cap = 65536;
    conns[i].buf = malloc(conns[i].buf_cap);
  }
  if (at != (size_t)size || nall == 0) {
    fprintf(stderr, "paced-loader: %s is not a request file\n", arg_file);
    return 2;
  }

  server_addr.sin_family = AF_INET;
  server_addr.sin_port = htons((uint16_t)atoi(arg_port));
  server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0) die("epoll_create1");
  for (uint32_t i = 0; i < nconn; i++) open_conn(&conns[i]);

  samples_t from_due = {0}, from_send = {0}, send_lag = {0}, warmup_due = {0};
  struct timespec wall;
  clock_gettime(CLOCK_REALTIME, &wall);
  // The schedule starts `--warmup` s before the measured part: connections made and the server past its start.
  int64_t start = now_ns();
  int64_t t0 = start + (int64_t)(arg_warmup * 1e9);
  double t0_epoch_ms = (double)wall.tv_sec * 1e3 + wall.tv_nsec / 1e6 + arg_warmup * 1e3;
  int64_t end = t0 + (int64_t)(arg_duration * 1e9);
  nwindows = (size_t)((end - t0) / WINDOW_NS) + 200; // the drain after the end too
  windows = calloc(nwindows, sizeof *windows);
  // Paced: the time between two requests over all connections, and the due time of the next one.
  double period_exact = arg_rate > 0 ? 1e9 / arg_rate : 0;
  int64_t period = (int64_t)period_exact;
  long next_k = 0; // requests made due so far
#define DUE(k) (start + (int64_t)((double)(k) * period_exact))
  uint32_t rr = 0; // the connection after the last one that sent
  for (uint32_t i = 0; i < nconn; i++) conns[i].idle_since = start;
  int64_t last_answer = t0;
  double in_flight_ns = 0; // the measured answers' times from the send, summed
  int64_t longest_turn = 0; // the longest time the loop spent away from epoll_wait
  struct epoll_event events[256];
  for (;;) {
    int64_t now = now_ns();
    int busy = 0;
    int64_t wake = end;
    uint32_t first = rr;
    for (uint32_t i = 0; i < nconn; i++) {
      uint32_t ci = (first + i) % nconn;
      conn_t *c = &conns[ci];
      if (c->in_flight) {
        busy = 1;
        continue;
      }
      if (!c->connected || now >= end) continue;
      if (!period) {
        send_next(c, now, now);
      } else if (DUE(next_k) <= now) {
        // Late by the loader's own doing when the connection was free before the request came due.
        int64_t due = DUE(next_k);
        int64_t ready = c->idle_since > due ? c->idle_since : due;
        add_sample(&send_lag, now - ready);
        send_next(c, due, now);
        next_k++;
        rr = ci + 1;
      } else if (DUE(next_k) < wake) {
        wake = DUE(next_k);
      }
      if (c->in_flight) busy = 1;
    }
    if (now >= end && !busy) break;
    if (now >= end + 5000000000LL) break; // answers still missing 5 s after the end: counted below
    int64_t wait_ns = (busy && now >= end) ? 100000000LL : wake - now;
    if (!period && now < end) wait_ns = end - now;
    if (wait_ns < 0) wait_ns = 0;
    struct timespec ts = {.tv_sec = wait_ns / 1000000000LL, .tv_nsec = wait_ns % 1000000000LL};
    int64_t turn = now_ns() - now;
    if (turn > longest_turn) longest_turn = turn;
    int n = epoll_pwait2(epfd, events, 256, &ts, NULL);
    if (n < 0) {
      if (errno == EINTR) continue;
      die("epoll_pwait2");
    }
    int64_t woke = now_ns();
    for (int e = 0; e < n; e++) {
      conn_t *c = events[e].data.ptr;
      if (!c->connected) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) {
          errno = err;
          die("connect");
        }
        c->connected = 1;
        c->idle_since = woke;
        want_write(c, 0);
        continue;
      }
      if ((events[e].events & EPOLLOUT) && c->in_flight && c->written < c->req->len) flush(c);
      if (!(events[e].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) continue;
      for (;;) {
        if (c->buf_cap - c->buf_len < 16384) {
          c->buf_cap *= 2;
          c->buf = realloc(c->buf, c->buf_cap);
          if (!c->buf) die("realloc");
        }
        ssize_t r = read(c->fd, c->buf + c->buf_len, c->buf_cap - c->buf_len - 1);
        if (r > 0) {
          c->buf_len += (size_t)r;
          continue;
        }
        if (r < 0 && errno == EAGAIN) break;
        broken(c);
        goto next_event;
      }
      {
        int status, header_ok, body_ok;
        size_t whole = whole_answer(c, &status, &header_ok, &body_ok);
        if (!whole) continue;
        if (!c->in_flight) {
          errors++; // an answer to nothing: the stream is out of step
          broken(c);
          continue;
        }
        int64_t t = now_ns();
        if (c->due < t0) {
          add_sample(&warmup_due, t - c->due); // a warm-up request: not in the figures
        } else {
          answered++;
          last_answer = t;
          if (period) add_sample(&from_due, t - c->due);
          note_window(t - t0, period ? t - c->due : t - c->sent, t - c->sent);
          add_sample(&from_send, t - c->sent);
          in_flight_ns += (double)(t - c->sent);
        }
        if (status < 200 || status > 299) non2xx++;
        else if (!header_ok || !body_ok) {
          bad++;
          if (!bad_sample[0]) {
            size_t n = whole < sizeof bad_sample - 1 ? whole : sizeof bad_sample - 1;
            memcpy(bad_sample, c->buf, n);
          }
        }
        memmove(c->buf, c->buf + whole, c->buf_len - whole);
        c->buf_len -= whole;
        c->in_flight = 0;
        c->idle_since = t;
      }
    next_event:;
    }
  }
  int64_t stop = now_ns();
  long timeouts = 0, owed = 0;
  for (uint32_t i = 0; i < nconn; i++)
    if (conns[i].in_flight) timeouts++;
  // Requests due before the end that were never sent: they waited at least until the end.
  for (long k = next_k; period && DUE(k) < end; k++) {
    add_sample(&from_due, end - DUE(k));
    owed++;
  }
  double seconds = (double)((last_answer > end ? end : last_answer) - t0) / 1e9;
  if (seconds <= 0) seconds = arg_duration;
  printf("{\"answered\":%ld,\"sent\":%ld,\"reqPerSec\":%.1f,\"durationSec\":%.3f,\"rate\":%.1f,", answered,
         sent_count, (double)answered / seconds, seconds, arg_rate);
  printf("\"errors\":%ld,\"timeouts\":%ld,\"non2xx\":%ld,\"badAnswers\":%ld,\"owedAtEnd\":%ld,\"reconnects\":%ld,",
         errors, timeouts, non2xx, bad, owed, reconnects);
  printf("\"connections\":%u,\"meanInFlight\":%.2f,", nconn, in_flight_ns / (seconds * 1e9));
  printf("\"longestTurnMs\":%.1f,\"drainMs\":%.1f,", longest_turn / 1e6, (stop - end) / 1e6);
  print_percentiles("fromDueMs", &from_due);
  printf(",");
  print_percentiles("fromSendMs", &from_send);
  printf(",");
  print_percentiles("sendLagMs", &send_lag);
  printf(",");
  print_percentiles("warmupFromDueMs", &warmup_due);
  // The ten windows with the longest answers, by their answer time since the start (ms) and on the wall clock.
  for (size_t w = 0; w < nwindows; w++) windows[w].index = (uint32_t)w;
  qsort(windows, nwindows, sizeof *windows, cmp_window);
  printf(",\"t0EpochMs\":%.1f,\"worstWindows\":[", t0_epoch_ms);
  for (size_t w = 0; w < 10 && w < nwindows && windows[w].max_due_us > 0; w++)
    printf("%s{\"atMs\":%lld,\"maxMs\":%.1f,\"maxFromSendMs\":%.1f}", w ? "," : "",
           (long long)(windows[w].index * WINDOW_NS / 1000000), windows[w].max_due_us / 1000.0,
           windows[w].max_send_us / 1000.0);
  printf("]");
  printf(",\"badSample\":\"");
  for (const unsigned char *p = (const unsigned char *)bad_sample; *p; p++) {
    if (*p >= 32 && *p < 127 && *p != '"' && *p != '\\') putchar(*p);
    else printf("\\u%04x", *p);
  }
  printf("\"}\n");
  return 0;
}
