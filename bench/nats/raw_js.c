/* Raw JetStream on the same servers and message size as Herald's nats
 * benchmark: one stream (file storage, REPLICAS replicas), one publisher
 * and one durable pull consumer (explicit ack, batches of 256), both in
 * this process on connections of their own. Each message carries the
 * publisher's CLOCK_MONOTONIC time; the consumer reports the end-to-end
 * rate (first publish to last message consumed) and the publish-to-consume
 * latency.
 *
 *   raw_js SERVERS REPLICAS SIZE COUNT throughput|latency [PACE_US]
 *
 * throughput: COUNT asynchronous publishes, as fast as the client takes
 * them (at most 4096 in flight). latency: one synchronous publish every
 * PACE_US microseconds (default 5000). Prints one line:
 * "events/s P50_US P99_US". */
#define _POSIX_C_SOURCE 200809L

#include <nats/nats.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void check(natsStatus s, const char *what) {
  if (s == NATS_OK) return;
  fprintf(stderr, "raw_js: %s: %s\n", what, natsStatus_GetText(s));
  exit(1);
}

static int compare(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

struct consumer {
  natsSubscription *sub;
  int64_t count;
  int64_t *latencies;
  int64_t last_ns;
};

static void *consume(void *arg) {
  struct consumer *c = arg;
  int64_t seen = 0;
  while (seen < c->count) {
    natsMsgList list = {0};
    natsStatus s = natsSubscription_Fetch(&list, c->sub, 256, 5000, NULL);
    if (s == NATS_TIMEOUT) continue;
    check(s, "fetch");
    const int64_t at = now_ns();
    for (int i = 0; i < list.Count; ++i) {
      int64_t sent = 0;
      memcpy(&sent, natsMsg_GetData(list.Msgs[i]), sizeof sent);
      if (seen < c->count) c->latencies[seen++] = at - sent;
      check(natsMsg_Ack(list.Msgs[i], NULL), "ack");
    }
    natsMsgList_Destroy(&list);
  }
  c->last_ns = now_ns();
  return NULL;
}

static jsCtx *connect_js(const char *servers, natsConnection **nc) {
  natsOptions *opts = NULL;
  check(natsOptions_Create(&opts), "options");
  char *copy = strdup(servers);
  const char *urls[16];
  int n = 0;
  for (char *tok = strtok(copy, ","); tok != NULL && n < 16;
       tok = strtok(NULL, ","))
    urls[n++] = tok;
  check(natsOptions_SetServers(opts, urls, n), "servers");
  check(natsConnection_Connect(nc, opts), "connect");
  natsOptions_Destroy(opts);
  free(copy);
  jsOptions jo;
  jsOptions_Init(&jo);
  jo.PublishAsync.MaxPending = 4096;
  jsCtx *js = NULL;
  check(natsConnection_JetStream(&js, *nc, &jo), "JetStream");
  return js;
}

int main(int argc, char **argv) {
  if (argc != 6 && argc != 7) {
    fprintf(stderr, "usage: raw_js SERVERS REPLICAS SIZE COUNT "
                    "throughput|latency [PACE_US]\n");
    return 2;
  }
  const char *servers = argv[1];
  const int replicas = atoi(argv[2]);
  const int size = atoi(argv[3]) < 8 ? 8 : atoi(argv[3]);
  const int64_t count = atoll(argv[4]);
  const int latency_mode = strcmp(argv[5], "latency") == 0;
  const long pace_us = argc == 7 ? atol(argv[6]) : 5000;

  natsConnection *pub_nc = NULL, *sub_nc = NULL;
  jsCtx *pub = connect_js(servers, &pub_nc);
  jsCtx *sub = connect_js(servers, &sub_nc);

  js_DeleteStream(pub, "BENCH_RAW", NULL, NULL);
  jsStreamConfig sc;
  jsStreamConfig_Init(&sc);
  const char *subjects[] = {"bench.raw"};
  sc.Name = "BENCH_RAW";
  sc.Subjects = subjects;
  sc.SubjectsLen = 1;
  sc.Storage = js_FileStorage;
  sc.Replicas = replicas;
  /* A cluster that has just elected its meta leader may refuse a stream
   * for a moment: tried for up to 10 s. */
  natsStatus added = NATS_ERR;
  for (int tries = 0; tries < 200 && added != NATS_OK; ++tries) {
    added = js_AddStream(NULL, pub, &sc, NULL, NULL);
    if (added != NATS_OK) {
      const struct timespec wait = {0, 50000000};
      nanosleep(&wait, NULL);
    }
  }
  check(added, "add stream");

  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = "BENCH_RAW";
  so.Config.AckPolicy = js_AckExplicit;
  so.Config.MaxAckPending = 65536;
  struct consumer c = {NULL, count, calloc((size_t)count, sizeof(int64_t)), 0};
  check(js_PullSubscribe(&c.sub, sub, "bench.raw", "raw", NULL, &so, NULL),
        "pull subscribe");
  pthread_t thread;
  pthread_create(&thread, NULL, consume, &c);

  char *payload = calloc((size_t)size, 1);
  memset(payload + sizeof(int64_t), 'x', (size_t)size - sizeof(int64_t));
  const int64_t first = now_ns();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t at = now_ns();
    memcpy(payload, &at, sizeof at);
    if (latency_mode) {
      check(js_Publish(NULL, pub, "bench.raw", payload, size, NULL, NULL),
            "publish");
      const struct timespec gap = {pace_us / 1000000,
                                   (pace_us % 1000000) * 1000};
      nanosleep(&gap, NULL);
    } else {
      check(js_PublishAsync(pub, "bench.raw", payload, size, NULL),
            "publish");
    }
  }
  if (!latency_mode) {
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 60000;
    check(js_PublishAsyncComplete(pub, &po), "publish complete");
  }
  pthread_join(thread, NULL);
  const double secs = (double)(c.last_ns - first) / 1e9;
  qsort(c.latencies, (size_t)count, sizeof(int64_t), compare);
  printf("%.0f %.1f %.1f\n", (double)count / secs,
         (double)c.latencies[count / 2] / 1000.0,
         (double)c.latencies[(count * 99) / 100] / 1000.0);

  natsSubscription_Unsubscribe(c.sub);
  natsSubscription_Destroy(c.sub);
  js_DeleteStream(pub, "BENCH_RAW", NULL, NULL);
  jsCtx_Destroy(pub);
  jsCtx_Destroy(sub);
  natsConnection_Destroy(pub_nc);
  natsConnection_Destroy(sub_nc);
  free(payload);
  free(c.latencies);
  return 0;
}
