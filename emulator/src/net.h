/*
 * net.h - tsar-emu's host side of the NIC (net_slirp.c): the -net and
 * -net-dump options, libslirp's user-mode network, the pcap dump.  Only
 * the command-line program uses it; the library sees frames through
 * temu_host.net_tx and temu_net_input.
 */
#ifndef TSAR_NET_H
#define TSAR_NET_H

#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu.h"

#define NET_MAX_FWD 16

typedef struct net_fwd {
    bool udp;
    struct in_addr haddr, gaddr;
    int hport, gport;
} net_fwd;

typedef struct net_opts {
    bool given;       /* -net was on the command line */
    bool none;        /* -net none: NIC without a cable */
    bool restricted;  /* restrict=on: only the gateway and the forwards */
    int nhostfwd, nguestfwd;
    net_fwd hostfwd[NET_MAX_FWD];
    net_fwd guestfwd[NET_MAX_FWD]; /* gaddr:gport in the guest's network -> haddr:hport */
    const char *dump; /* -net-dump FILE */
} net_opts;

/* Parse the value of -net into o (which starts zeroed: the default is
 * `user,restrict=on`).  0, or -1 with a message naming the option. */
int net_parse(net_opts *o, const char *arg, char *err, size_t errlen);

typedef struct net net;

/* Start the host side for e's NIC: libslirp (unless -net none), its
 * forwards, the dump file.  NULL with a message in err. */
net *net_start(const net_opts *o, temu *e, char *err, size_t errlen);
void net_stop(net *n);
/* A frame from the guest (temu_host.net_tx). */
void net_send(net *n, const uint8_t *frame, size_t len);
/* Before poll(): append the network's descriptors to *pf (grown with
 * realloc, *cap entries) from index *nfd, and lower *timeout_ns (-1 =
 * none) to its next timer.  After poll(): hand the results over (the
 * entries from `first` on), run due timers. */
int net_poll_fill(net *n, struct pollfd **pf, int *nfd, int *cap, int64_t *timeout_ns);
void net_poll_done(net *n, const struct pollfd *pf, int first, int poll_result);
/* Flush the dump file. */
void net_flush(net *n);

/* The guest-forward relay (tsar-emu --net-relay HOST:PORT, started by
 * libslirp for each guest connection with the connection on fd 0):
 * connect to HOST:PORT and copy both ways until both sides close. */
int net_relay_main(const char *hostport);

#endif
