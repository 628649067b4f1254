/* SPDX-License-Identifier: BSD-2-Clause */
#include <string.h>

#include "analyze_report.h"
#include "osmre.h"

int analysis_valid(const struct analysis *a)
{
	return check_ok(&a->chk);
}

static void text(FILE *fp, const struct analysis *a)
{
	const struct check_result *r = &a->chk;
	int i;

	fprintf(fp,
		"validity: %s: CA pairs %ld, unreachable %ld, loops %ld, not up-down %ld%s; switch LIDs unreachable %ld\n",
		analysis_valid(a) ? "VALID" : "INVALID", r->pairs,
		r->unreachable, r->loops, r->updown,
		a->updown_checked ? "" : " (not checked)",
		r->sw_unreachable + r->sw_loops);
	if (r->no_lid)
		fprintf(fp,
			"validity: %ld port(s) without a LID: nobody reaches them\n",
			r->no_lid);
	fprintf(fp,
		"path length (links): min %d avg %.3f max %d; longer than the shortest: %ld pairs (%.2f %%)\n",
		r->min_hops, r->avg_hops, r->max_hops, r->longer,
		r->pairs ? 100.0 * (double)r->longer / (double)r->pairs : 0.0);
	if (a->nvl > 1 || strcmp(a->sl_source, "one VL"))
		fprintf(fp, "deadlock freedom (SLs from %s, %d VL%s): ",
			a->sl_source, a->nvl, a->nvl == 1 ? "" : "s");
	else
		fputs("deadlock freedom (one VL): ", fp);
	if (a->acyclic)
		fprintf(fp,
			"channel dependency graph acyclic (%ld channels, %ld dependencies)\n",
			a->channels, a->deps);
	else
		fprintf(fp, "CYCLE in the channel dependency graph: %s\n",
			a->cycle ? a->cycle : "");
	/* an engine with layers (sar, the escape) needs its SLs to be
	 * judged: on one VL its layers' routes share one graph */
	if (!a->acyclic && a->nvl <= 1 && !strcmp(a->sl_source, "one VL"))
		fputs("deadlock freedom: on one VL only; tables routed on several VLs (sar, the update protocol's escape) are judged with their SLs: --sl-file (osmre route --sls)\n",
		      fp);
	if (a->planes > 1)
		fprintf(fp,
			"congestion risk, %d CA ports in %s order, %d planes (each plane's ports alone, the maximum over planes): all-to-all (A2A) %d, shift permutations (SP, max of %d) %d, random permutations (RP, median of %d, seed %ld) %d\n",
			a->nports, a->order, a->planes, a->a2a, a->max_shift,
			a->sp, a->nperm, a->seed, a->rp);
	else
		fprintf(fp,
			"congestion risk, %d CA ports in %s order: all-to-all (A2A) %d, shift permutations (SP, max of %d) %d, random permutations (RP, median of %d, seed %ld) %d\n",
			a->nports, a->order, a->a2a,
			a->nports > 1 ? a->nports - 1 : 0, a->sp, a->nperm,
			a->seed, a->rp);
	for (i = 0; a->planes > 1 && i < a->planes && i < ANALYSIS_PLANES; i++)
		fprintf(fp,
			"  plane %d: %d CA ports: all-to-all (A2A) %d, shift permutations (SP, max of %d) %d, random permutations (RP) %d\n",
			i, a->pf[i].ports, a->pf[i].a2a, a->pf[i].max_shift,
			a->pf[i].sp, a->pf[i].rp);
	for (i = 0; r->nplanes > 1 && i < r->nplanes && i < CHECK_MAX_PLANES;
	     i++)
		fprintf(fp,
			"  plane %d validity: CA pairs %ld, unreachable %ld, loops %ld, not up-down %ld; path length min %d avg %.3f max %d, longer than the shortest %ld\n",
			i, r->plane[i].pairs, r->plane[i].unreachable,
			r->plane[i].loops, r->plane[i].updown,
			r->plane[i].min_hops, r->plane[i].avg_hops,
			r->plane[i].max_hops, r->plane[i].longer);
	if (a->planes > 1)
		fprintf(fp,
			"host pairs: %ld; routed on at least one plane %ld, on every plane %ld\n",
			a->host_pairs, a->pairs_any, a->pairs_every);
	if (a->unroutable)
		fprintf(fp,
			"congestion risk: %ld routes of the patterns could not be walked\n",
			a->unroutable);
	if (a->has_against)
		fprintf(fp,
			"update: %ld of %ld entries changed (%.2f %%), %ld of %ld 64-LID blocks (%.2f %%)%s\n",
			a->entries_changed, a->entries,
			a->entries ? 100.0 * (double)a->entries_changed /
					     (double)a->entries :
				     0.0,
			a->blocks_changed, a->blocks,
			a->blocks ? 100.0 * (double)a->blocks_changed /
					    (double)a->blocks :
				    0.0,
			a->dropped ? "; switches gone not counted" : "");
	if (a->has_jobs)
		fprintf(fp,
			"jobs: %d jobs, %d hosts: effective edge forwarding index max %ld, per-job average of maxima %.2f, dark fiber %.1f %% of %ld inter-switch links\n",
			a->njobs, a->nhosts, a->efi_max, a->efi_avg_job_max,
			a->dark_pct, a->links);
}

static const char *const csv_head =
	"valid,ca_pairs,unreachable,loops,not_updown,switch_lids_unreachable,"
	"hops_min,hops_avg,hops_max,cdg_acyclic,vls,channels,dependencies,"
	"order,ca_ports,a2a,sp,rp,rp_perms,rp_seed,unroutable_routes,"
	"jobs,job_hosts,efi_max,efi_avg_job_max,dark_fiber_pct,longer_pairs,"
	"entries_changed,blocks_changed,entries,blocks,planes,host_pairs,"
	"pairs_any_plane,pairs_every_plane,plane_a2a,plane_sp,plane_rp,"
	"plane_ca_pairs,plane_unreachable,plane_loops,plane_hops_max";

/* One figure of every plane, ';'-separated and quoted (CSV): A2A, SP,
 * RP, CA pairs, unreachable, loops, longest path. */
static void csv_planes(FILE *fp, const struct analysis *a, int what)
{
	const struct check_result *r = &a->chk;
	int i;

	fputc('"', fp);
	for (i = 0; i < a->planes && i < ANALYSIS_PLANES; i++) {
		const struct check_plane *q =
			i < CHECK_MAX_PLANES ? &r->plane[i] : NULL;

		fputs(i ? ";" : "", fp);
		if (what < 3)
			fprintf(fp, "%d",
				what == 0 ? a->pf[i].a2a :
				what == 1 ? a->pf[i].sp :
					    a->pf[i].rp);
		else if (q)
			fprintf(fp, "%ld",
				what == 3 ? q->pairs :
				what == 4 ? q->unreachable :
				what == 5 ? q->loops :
					    (long)q->max_hops);
	}
	fputc('"', fp);
}

static void csv(FILE *fp, const struct analysis *a)
{
	const struct check_result *r = &a->chk;

	fprintf(fp, "%s\n", csv_head);
	fprintf(fp, "%d,%ld,%ld,%ld,", analysis_valid(a), r->pairs,
		r->unreachable, r->loops);
	if (a->updown_checked)
		fprintf(fp, "%ld", r->updown);
	fprintf(fp, ",%ld,%d,%.3f,%d,%d,%d,%ld,%ld,",
		r->sw_unreachable + r->sw_loops, r->min_hops, r->avg_hops,
		r->max_hops, a->acyclic, a->nvl, a->channels, a->deps);
	tool_csv_field(fp, a->order); /* (a file's path with --order file:) */
	fprintf(fp, ",%d,%d,%d,%d,%d,%ld,%ld,", a->nports, a->a2a, a->sp, a->rp,
		a->nperm, a->seed, a->unroutable);
	if (a->has_jobs)
		fprintf(fp, "%d,%d,%ld,%.2f,%.1f", a->njobs, a->nhosts,
			a->efi_max, a->efi_avg_job_max, a->dark_pct);
	else
		fputs(",,,,", fp);
	fprintf(fp, ",%ld,", r->longer);
	if (a->has_against)
		fprintf(fp, "%ld,%ld,%ld,%ld", a->entries_changed,
			a->blocks_changed, a->entries, a->blocks);
	else
		fputs(",,,", fp);
	fprintf(fp, ",%d,", a->planes);
	if (a->planes > 1) {
		fprintf(fp, "%ld,%ld,%ld,", a->host_pairs, a->pairs_any,
			a->pairs_every);
		for (int w = 0; w < 7; w++) {
			if (w)
				fputc(',', fp);
			csv_planes(fp, a, w);
		}
	} else {
		fputs(",,,,,,,,,", fp);
	}
	fputc('\n', fp);
}

static void json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static void json(FILE *fp, const struct analysis *a)
{
	const struct check_result *r = &a->chk;

	fprintf(fp,
		"{\n  \"validity\": {\"valid\": %s, \"ca_pairs\": %ld, \"unreachable\": %ld, \"loops\": %ld, \"not_updown\": ",
		analysis_valid(a) ? "true" : "false", r->pairs, r->unreachable,
		r->loops);
	if (a->updown_checked)
		fprintf(fp, "%ld", r->updown);
	else
		fputs("null", fp);
	fprintf(fp, ", \"switch_lids_unreachable\": %ld},\n",
		r->sw_unreachable + r->sw_loops);
	fprintf(fp,
		"  \"path_length\": {\"min\": %d, \"avg\": %.3f, \"max\": %d, \"longer_pairs\": %ld},\n",
		r->min_hops, r->avg_hops, r->max_hops, r->longer);
	fprintf(fp, "  \"deadlock\": {\"acyclic\": %s, \"sl_source\": ",
		a->acyclic ? "true" : "false");
	json_string(fp, a->sl_source);
	fprintf(fp,
		", \"vls\": %d, \"channels\": %ld, \"dependencies\": %ld, \"cycle\": ",
		a->nvl, a->channels, a->deps);
	if (a->cycle)
		json_string(fp, a->cycle);
	else
		fputs("null", fp);
	fputs("},\n  \"congestion\": {\"order\": ", fp);
	json_string(fp, a->order);
	fprintf(fp,
		", \"ca_ports\": %d, \"a2a\": %d, \"sp\": %d, \"rp\": %d, \"rp_perms\": %d, \"rp_seed\": %ld, \"unroutable_routes\": %ld},\n",
		a->nports, a->a2a, a->sp, a->rp, a->nperm, a->seed,
		a->unroutable);
	if (a->planes > 1) {
		int i;

		fprintf(fp,
			"  \"planes\": {\"count\": %d, \"host_pairs\": %ld, \"pairs_any_plane\": %ld, \"pairs_every_plane\": %ld, \"per_plane\": [",
			a->planes, a->host_pairs, a->pairs_any, a->pairs_every);
		for (i = 0; i < a->planes && i < ANALYSIS_PLANES; i++)
			fprintf(fp,
				"%s{\"plane\": %d, \"ca_ports\": %d, \"a2a\": %d, \"sp\": %d, \"rp\": %d, \"ca_pairs\": %ld, \"unreachable\": %ld, \"loops\": %ld, \"hops_avg\": %.3f, \"hops_max\": %d}",
				i ? ", " : "", i, a->pf[i].ports, a->pf[i].a2a,
				a->pf[i].sp, a->pf[i].rp,
				i < CHECK_MAX_PLANES ? r->plane[i].pairs : 0,
				i < CHECK_MAX_PLANES ? r->plane[i].unreachable :
						       0,
				i < CHECK_MAX_PLANES ? r->plane[i].loops : 0,
				i < CHECK_MAX_PLANES ? r->plane[i].avg_hops :
						       0.0,
				i < CHECK_MAX_PLANES ? r->plane[i].max_hops :
						       0);
		fputs("]},\n", fp);
	} else {
		fputs("  \"planes\": null,\n", fp);
	}
	if (a->has_against)
		fprintf(fp,
			"  \"update\": {\"entries_changed\": %ld, \"entries\": %ld, \"blocks_changed\": %ld, \"blocks\": %ld},\n",
			a->entries_changed, a->entries, a->blocks_changed,
			a->blocks);
	else
		fputs("  \"update\": null,\n", fp);
	if (a->has_jobs)
		fprintf(fp,
			"  \"jobs\": {\"jobs\": %d, \"hosts\": %d, \"efi_max\": %ld, \"efi_avg_job_max\": %.2f, \"dark_fiber_pct\": %.1f, \"inter_switch_links\": %ld}\n",
			a->njobs, a->nhosts, a->efi_max, a->efi_avg_job_max,
			a->dark_pct, a->links);
	else
		fputs("  \"jobs\": null\n", fp);
	fputs("}\n", fp);
}

void analysis_print(FILE *fp, const struct analysis *a,
		    enum analysis_format fmt)
{
	switch (fmt) {
	case AF_CSV:
		csv(fp, a);
		break;
	case AF_JSON:
		json(fp, a);
		break;
	default:
		text(fp, a);
	}
}
