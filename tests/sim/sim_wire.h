/*
 * The device side of the ADB wire protocol: one connection per accepted
 * TCP socket, streams opened by the host, per-stream flow control.
 *
 * A service runs in its own thread and sees its stream as a blocking byte
 * pipe: sim_stream_write() buffers up to the negotiated maxdata and sends
 * one WRTE at a time, waiting for the host's OKAY before the next (strict
 * stop-and-wait, no delayed ack); sim_stream_read() returns what the host
 * wrote, OKAYing it once consumed.  When the service returns, the stream
 * is flushed and closed with CLSE (unless the host closed it first).
 */
#ifndef ADBSIM_SIM_WIRE_H
#define ADBSIM_SIM_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

struct sim_conn;
struct sim_stream;

/* Serve one accepted socket until it closes; takes ownership of fd. */
void sim_conn_serve(struct sim_device *dev, int fd);

/* Wake every connection (used on SIGTERM) and wait up to a few seconds
 * for their threads to finish. */
void sim_conn_shutdown_all(void);

/* Stream I/O for services. Both return -1 once the stream or the
 * connection is closed. */
int sim_stream_write(struct sim_stream *s, const void *p, size_t n);
int sim_stream_flush(struct sim_stream *s);
/* Blocks until at least one byte is available; 0 at end of input (host
 * closed the stream). Pending output is flushed before blocking. */
long sim_stream_read(struct sim_stream *s, void *p, size_t n);
/* Read exactly n bytes; -1 if the input ends first. */
int sim_stream_read_full(struct sim_stream *s, void *p, size_t n);
/* Non-zero once the host closed the stream or the connection died. */
int sim_stream_closed(struct sim_stream *s);
/* Cancellation callback for sim_sleep(). */
int sim_stream_cancelled(void *stream);

/* Drop the whole TCP connection now (--disconnect-after). */
void sim_stream_drop_connection(struct sim_stream *s);
/* Drop every connection now, without waiting (--reconnect-after). */
void sim_conn_drop_all(void);

/* A --disconnect-after / --disconnect-pull-after limit was reached while
 * writing to s (may be NULL): what was written goes out, then the link
 * drops (sim_link_drop with --reconnect-after, else just s's
 * connection, or every connection when s is NULL). */
void sim_drop_here(struct sim_device *dev, struct sim_stream *s, uint64_t after_bytes);
/* 1 if the disconnect limits still apply (a brief drop happens once). */
int sim_drop_armed(struct sim_device *dev);

struct sim_device *sim_stream_device(struct sim_stream *s);
const char *sim_stream_service(struct sim_stream *s);
/* Largest WRTE payload on this stream (the negotiated maxdata). */
size_t sim_stream_maxdata(struct sim_stream *s);

/* Implemented by sim_service.c: run the service named by the OPEN;
 * returns when done. sim_service_known() decides OPEN vs refusal. */
int sim_service_known(struct sim_device *dev, const char *name);
void sim_service_run(struct sim_stream *s);

/* Authentication seam (sim_auth.c).  Called with the host's CNXN:
 * return 1 to go online right away (send CNXN), 0 when an AUTH exchange
 * was started; sim_auth_packet() handles AUTH packets and returns 1 once
 * the host is accepted.  The stub accepts every host. */
struct sim_auth;
struct sim_auth *sim_auth_new(struct sim_device *dev);
void sim_auth_free(struct sim_auth *a);
int sim_auth_begin(struct sim_auth *a, struct sim_conn *c);
int sim_auth_packet(struct sim_auth *a, struct sim_conn *c, uint32_t type,
                    const unsigned char *data, size_t len);
/* For the auth module: send one packet on the connection. */
int sim_conn_send(struct sim_conn *c, uint32_t cmd, uint32_t arg0,
                  uint32_t arg1, const void *data, size_t len);

#endif
