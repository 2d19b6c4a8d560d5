/*
 * The sync: service of the simulated device (file transfer).
 */
#ifndef ADBSIM_SIM_SYNC_H
#define ADBSIM_SIM_SYNC_H

struct sim_stream;

/* Serve requests until QUIT, an error, or the host closing the stream. */
void sim_sync_serve(struct sim_stream *s);

#endif
