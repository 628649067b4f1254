/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * SIGUSR2 -> re-route.  The handler only writes a byte to a pipe
 * (async-signal-safe).  A thread reads it, drains whatever else arrives
 * until the burst is over (reroute_coalesce_ms of quiet), asks OpenSM for a
 * forced re-route and waits until that pass is over (dmodc's pass, or
 * OpenSM's routing-done or subnet-up event when another engine routes);
 * signals that arrive meanwhile are in the pipe and lead to exactly one
 * more pass.
 */
#include "osmre_plugin.h"

#include "clock.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#define QUIT	    'q'
#define WAKE	    'w'
#define PASS_WAIT_S 60 /* never hang on a pass that does not come */

static int sig_fd = -1; /* write end, for the handler */

static void on_sigusr2(int sig)
{
	int saved = errno;
	char c = WAKE;

	(void)sig;
	if (sig_fd >= 0 && write(sig_fd, &c, 1) < 0) {
		/* pipe full: a wake-up is already pending */
	}
	errno = saved;
}

/* Reads everything pending; returns 1 to quit. */
static int drain(int fd)
{
	char buf[64];
	ssize_t n, i;
	int quit = 0;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			quit |= buf[i] == QUIT;
	return quit;
}

/*
 * A burst is one request: wait until no signal came for
 * reroute_coalesce_ms, or at most 5 times that.  Returns 1 to quit.
 */
static int coalesce(struct osmre *p)
{
	struct pollfd pfd = { .fd = p->rr.pipe[0], .events = POLLIN };
	int quiet = p->opt.reroute_coalesce_ms;
	double t0 = clock_mono();

	while (quiet > 0 && poll(&pfd, 1, quiet) > 0) {
		if (drain(p->rr.pipe[0]))
			return 1;
		if ((clock_mono() - t0) * 1000 >= 5.0 * quiet)
			break;
	}
	return 0;
}

static void *reroute_thread(void *arg)
{
	struct osmre *p = arg;
	struct reroute *rr = &p->rr;
	struct pollfd pfd = { .fd = rr->pipe[0], .events = POLLIN };

	for (;;) {
		unsigned long before;
		struct timespec until;

		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		if (!(pfd.revents & POLLIN))
			continue;
		if (drain(rr->pipe[0]) || coalesce(p))
			break;
		pthread_mutex_lock(&rr->lock);
		if (!rr->running) {
			pthread_mutex_unlock(&rr->lock);
			break;
		}
		pthread_mutex_unlock(&rr->lock);
		/* only the master routes: a standby's pass would come when
		 * it becomes master, long after the ask */
		if (!sm_is_master(p)) {
			OSM_LOG(&p->osm->log, OSM_LOG_ERROR,
				"osmre ERR: SIGUSR2: this SM is %s, not master: no re-route (ask the master)\n",
				sm_state_name(p));
			continue;
		}
		if (p->opt.update_protocol) {
			/* the protocol's thread re-routes, phase by phase */
			proto_request(p);
			continue;
		}
		OSM_LOG(&p->osm->log, OSM_LOG_INFO,
			"osmre: SIGUSR2: forcing a re-route\n");
		pthread_mutex_lock(&rr->lock);
		before = rr->passes;
		pthread_mutex_unlock(&rr->lock);
		p->osm->subn.force_reroute = TRUE;
		osm_opensm_sweep(p->osm);
		until = clock_deadline(PASS_WAIT_S);
		pthread_mutex_lock(&rr->lock);
		while (rr->passes == before && rr->running &&
		       pthread_cond_timedwait(&rr->cond, &rr->lock, &until) !=
			       ETIMEDOUT)
			;
		pthread_mutex_unlock(&rr->lock);
	}
	return NULL;
}

void reroute_pass_done(struct osmre *p)
{
	pthread_mutex_lock(&p->rr.lock);
	p->rr.passes++;
	pthread_cond_broadcast(&p->rr.cond);
	pthread_mutex_unlock(&p->rr.lock);
}

int reroute_start(struct osmre *p)
{
	struct reroute *rr = &p->rr;
	struct sigaction sa;

	if (pipe(rr->pipe))
		return -1;
	fcntl(rr->pipe[0], F_SETFL, O_NONBLOCK);
	fcntl(rr->pipe[1], F_SETFL, O_NONBLOCK);
	fcntl(rr->pipe[0], F_SETFD, FD_CLOEXEC);
	fcntl(rr->pipe[1], F_SETFD, FD_CLOEXEC);
	pthread_mutex_init(&rr->lock, NULL);
	pthread_cond_init(&rr->cond, NULL);
	rr->running = 1;
	if (pthread_create(&rr->thread, NULL, reroute_thread, p))
		goto fail;
	sig_fd = rr->pipe[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigusr2;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGUSR2, &sa, &rr->old)) {
		reroute_stop(p);
		return -1;
	}
	return 0;
fail:
	rr->running = 0;
	close(rr->pipe[0]);
	close(rr->pipe[1]);
	return -1;
}

void reroute_stop(struct osmre *p)
{
	struct reroute *rr = &p->rr;
	char c = QUIT;

	if (!rr->running)
		return;
	sigaction(SIGUSR2, &rr->old, NULL);
	sig_fd = -1;
	pthread_mutex_lock(&rr->lock);
	rr->running = 0;
	pthread_cond_broadcast(&rr->cond);
	pthread_mutex_unlock(&rr->lock);
	if (write(rr->pipe[1], &c, 1) < 0) {
		/* full pipe: the thread is awake anyway and sees QUIT later */
	}
	pthread_join(rr->thread, NULL);
	close(rr->pipe[0]);
	close(rr->pipe[1]);
	pthread_mutex_destroy(&rr->lock);
	pthread_cond_destroy(&rr->cond);
}
