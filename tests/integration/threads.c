/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * threads -- replay several filesystems at once, one thread each, through
 * librecover's public calls, for tests/integration/threads.sh: handles in
 * different threads share nothing (no global state), so each replay must
 * leave what it leaves on its own.
 *
 * usage: threads IMAGE...
 * Starts one thread per IMAGE; all wait at a barrier, then each runs
 * recover_open(), recover_replay() (its scan starts the library's own
 * read-ahead thread) and recover_close() on its image.  One line per
 * image, in argument order, after all threads are joined:
 *   IMAGE: err=CODE outcome=N replayed=N revoked=N log_blocks=N
 * CODE is 0 or the error's symbolic name (recover_error_name()).
 * Exit status: 0 every replay returned 0, 1 one did not, 2 usage or a
 * thread could not be started.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "librecover.h"

struct job {
	const char	*image;
	pthread_barrier_t *start;
	errcode_t	err;
	struct recover_stats st;
};

static void *replay_one(void *arg)
{
	struct job *j = arg;
	struct recover_options opts = RECOVER_INIT(struct recover_options);
	recover_t r;

	pthread_barrier_wait(j->start);
	j->err = recover_open(j->image, &opts, &r);
	if (j->err)
		return NULL;
	j->err = recover_replay(r);
	recover_get_stats(r, &j->st);
	recover_close(r);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_barrier_t start;
	pthread_t *tid;
	struct job *jobs;
	int n = argc - 1, i, rc = 0;

	if (n < 1) {
		fprintf(stderr, "usage: threads IMAGE...\n");
		return 2;
	}
	jobs = calloc((size_t)n, sizeof(*jobs));
	tid = calloc((size_t)n, sizeof(*tid));
	if (!jobs || !tid || pthread_barrier_init(&start, NULL, (unsigned)n)) {
		fprintf(stderr, "threads: out of memory\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		jobs[i].image = argv[1 + i];
		jobs[i].start = &start;
		jobs[i].st.size = sizeof(jobs[i].st);
		if (pthread_create(&tid[i], NULL, replay_one, &jobs[i])) {
			/* The barrier would wait for it forever. */
			fprintf(stderr, "threads: cannot start thread %d\n", i);
			_exit(2);
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	for (i = 0; i < n; i++) {
		const struct job *j = &jobs[i];
		const char *name = j->err ? recover_error_name(j->err) : "0";

		if (!name)
			name = "unknown";
		printf("%s: err=%s outcome=%d replayed=%llu revoked=%llu "
		       "log_blocks=%llu\n", j->image, name, (int)j->st.outcome,
		       j->st.replayed, j->st.revoked, j->st.log_blocks);
		if (j->err)
			rc = 1;
	}
	pthread_barrier_destroy(&start);
	free(tid);
	free(jobs);
	return rc;
}
