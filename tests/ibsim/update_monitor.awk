# SPDX-License-Identifier: BSD-2-Clause
# The update protocol's invariant monitor (tests/ibsim/update_monitor.sh):
# checks, from what the switches answered and what the clients' hooks did,
# and not from the SM's own bookkeeping, that no base-LID route changed
# under a subscriber session before that session moved to the escape, and
# that none moved back before the changes were in.
#
# awk -v from=T0 -v to=T1 -v ackms=MS -v maxm=N -f this \
#     BASE_LIDS EVENTS
#   BASE_LIDS  the CA base LIDs, one decimal LID a line (not the high LIDs
#              base+1..: those are the escape)
#   EVENTS     one event a line, "TIME KIND ...", sorted by TIME (wall-clock
#              seconds):
#     set SW BLOCK TID            OpenSM sent a Set of an LFT block (lftspy)
#     resp SW BLOCK TID ST HEX    a switch answered: the block it holds now
#     sm start I                  OpenSM instance I started (its log's start)
#     unpath I:E                  the SM began UNPATH of epoch E
#     commit I:E WORDS...         its commit line ("subscribers N, acks A,
#                                 timeouts T ...": every "word N" pair)
#     pass I                      a routing pass ended (osmre's "routed" or
#                                 "kept" line); the Sets that follow are its
#     link WORDS...               the test changed a link (ibsim console)
#     proc C / dead C / stop C    client process C started / was killed
#                                 (kill -9) / was stopped (SIGTERM)
#     reg C ID                    C logged "registered as subscriber ID"
#     unreg C                     C logged that its registration was refused,
#                                 or that it leaves
#     hook C start|end PHASE EPOCH SESSION [RC]
#                                 C's hook began / ended (exit status RC);
#                                 SESSION is OSMRE_SESSION or "-"
# Prints "OK summary" or "VIOLATION first one", then "# " evidence lines.
#
# The rules (every time is one the monitor observed itself; from the SM it
# takes only when UNPATH began and its commit line):
#  - a change is a Set whose answer shows a base-LID entry other than the
#    last answer for that block did (a block sent again unchanged is none);
#    it lasts from the Set's send to the answer;
#  - a client is on the escape from the end of an unpath hook that exited
#    0 until the start of its next repath hook; a change is safe for a
#    session when its client was on the escape over the whole change;
#  - a session is the client's latest registration; when the client
#    registers again without having missed anything (the SM forgot it, or
#    restarted), the promise holds from its first registration on; a
#    client whose registration was refused, or that leaves, has none until
#    it registers again (then anew); a killed client's session stays until
#    the end of the run it died in;
#  - a run is the SM's first UNPATH after a commit (or its start) to the
#    next commit: epochs restarted from COMPUTE belong to it;
#  - exempt: sessions registered (first registration) after the latest
#    UNPATH began, and the changes of the routing pass that ended first
#    after a link change, and of the next pass when the first ended
#    within 1 s of the change;
#  - a change outside a run under a session on the base LIDs is a
#    violation;
#  - a change inside a run under a session on the base LIDs is a miss of
#    that session; misses are allowed only if (a) the run's commit line
#    declares at least as many misses (the sum of its fields named
#    timeout*, nack*, miss*, fail*) as there are missed sessions, (b) each
#    change was sent no earlier than UNPATH start + ack, unless the
#    session's unpath hook had failed before and the commit line has
#    nack* or fail* fields that count it, and (c) a session is missed in at
#    most maxm runs in a row;
#  - every client that went to the escape in a run is back: a repath hook
#    started after the run's last (non-exempt) change was in, by the next
#    run's first UNPATH or the end of the window.

BEGIN {
	ack = ackms / 1000
}

function rel(t) { return sprintf("t+%.3f", t - from) }

# a violation at time t (reported when t is in the window); those with the
# same key (a session, a run, a rule) are one, the blocks counted
function violate(t, msg, key) {
	if (t < from || t > to)
		return
	if (key != "" && (key in vidx)) {
		vcnt[vidx[key]]++
		return
	}
	nviol++
	vmsg[nviol] = msg
	vcnt[nviol] = 1
	if (key != "")
		vidx[key] = nviol
}

function vtext(i) {
	return vmsg[i] (vcnt[i] > 1 ? sprintf(" (and %d more block(s) like it)", vcnt[i] - 1) : "")
}

function note(msg) { notes[++nnotes] = msg }

# the session of client c at time ts: its current one, or the one before
# when c registered again after ts
function sess_at(c, ts) {
	if (!(c in cur))
		return ""
	if (regt[c] <= ts)
		return cur[c]
	return (c in prevs) ? prevs[c] : ""
}

function owed_client(c) {
	if (alive[c])
		return 1
	return (c in deadrun) && run && deadrun[c] == runid
}

function start_run(t, ep) {
	run = 1
	runid++
	runep[runid] = runfirst[runid] = ep
	runstart[runid] = t
	lastch[runid] = 0
	nch[runid] = 0
}

# a run that ended without a commit (its OpenSM stopped, or the window
# ended): its misses were never declared
function drop_run(t, why,   cs, n) {
	if (!run)
		return
	n = 0
	for (cs in seenrun)
		if (seenrun[cs] == runid && missrun[cs] == runid)
			n++
	if (n)
		violate(t, sprintf("epoch %s (UNPATH %s) not committed before %s: %d session(s) changed under without a declaration",
			runep[runid], rel(runstart[runid]), why, n))
	else if (runstart[runid] >= from && runstart[runid] <= to)
		note(sprintf("epoch %s (UNPATH %s): no commit before %s", runep[runid], rel(runstart[runid]), why))
	run = 0
}

# the clients that went to the escape in a committed run are back by now
function check_back(t,   c) {
	for (c in backrun)
		if (alive[c])
			check_back1(c, t)
}

function check_back1(c, t) {
	if (backrun[c] == "")
		return
	if (!esc[c] && backt[c] > backneed[c]) {
		backrun[c] = ""
		return
	}
	violate(t, sprintf("client %s (session %s) not back on the base LIDs after epoch %s (committed %s): its last repath hook started %s, the last change was in at %s",
		c, cur[c], runep[backrun[c]], rel(backcommit[c]),
		(c in backt) ? rel(backt[c]) : "never", rel(backneed[c])))
	backrun[c] = ""
}

function on_change(ts, tr, sw, blk, lids, p,   c, s, what, k) {
	if (ts >= from && ts <= to)
		wchanges++
	if (topo[p]) {
		if (ts >= from && ts <= to)
			wexempt++
		return
	}
	if (run) {
		nch[runid]++
		if (tr > lastch[runid])
			lastch[runid] = tr
	}
	for (c in alive) {
		if (!owed_client(c))
			continue
		s = sess_at(c, ts)
		if (s == "")
			continue
		k = c SUBSEP s
		if (run && chain[k] > unpatht) {
			if (ts >= from && ts <= to)
				wlate++
			continue
		}
		if (run)
			seenrun[k] = runid
		if (ts >= from && ts <= to && !(k in wsess)) {
			wsess[k] = 1
			wnsess++
		}
		if (esc[c] && escsince[c] <= ts)
			continue
		what = sprintf("block %d of switch %s (LIDs%s) changed (sent %s, in %s) under session %s of client %s (registered %s%s%s)",
			blk, sw, lids, rel(ts), rel(tr), s, c, rel(sreg[k]),
			chain[k] < sreg[k] ? ", client registered since " rel(chain[k]) : "",
			(c in deadt) ? ", killed " rel(deadt[c]) : "")
		if (hookstart[c] != "" && hookstart[c] >= (run ? unpatht : 0) && hookphase[c] == "unpath" && hookend[c] < hookstart[c])
			what = what sprintf(" while its unpath hook ran (started %s)", rel(hookstart[c]))
		else if (hookphase[c] == "unpath" && hookrc[c] != 0 && hookend[c] >= (run ? unpatht : 0))
			what = what sprintf(" after its unpath hook failed (%s)", rel(hookend[c]))
		else if (hookphase[c] == "repath" && hookstart[c] <= tr)
			what = what sprintf(" after it moved back (repath hook started %s)", rel(hookstart[c]))
		else
			what = what " on the base LIDs"
		if (!run) {
			violate(ts, what " outside any update epoch (no UNPATH since the last commit)",
				"out" SUBSEP k SUBSEP runid)
			continue
		}
		missed[k] = 1
		if (missrun[k] != runid) {
			missrun[k] = runid
			misswhat[k] = what
			failedearly[k] = ""
		}
		if (ts < unpatht + ack - 0.0005) {
			if (hookphase[c] == "unpath" && hookrc[c] != 0 && hookend[c] >= unpatht && hookend[c] <= ts)
				failedearly[k] = runid
			else
				violate(ts, what sprintf(" in epoch %s, %.3f s after UNPATH began (%s): before update_ack_timeout_ms %d",
					runep[runid], ts - unpatht, rel(unpatht), ack * 1000),
					"early" SUBSEP k SUBSEP runid)
		}
	}
}

# the commit line: every "word N" pair is a field; the misses it declares
# are the fields named timeout*, nack*, miss*, fail*; those a client said
# it failed (before its ack timeout), nack* and fail*
function on_commit(t,   i, w, v, declared, nacks, hasnack, n, nearly, cs, parts, c) {
	declared = nacks = hasnack = 0
	for (i = 4; i < NF; i++) {
		w = $i
		v = $(i + 1)
		sub(/[,;.]$/, "", v)
		if (w !~ /^[a-z_]+$/ || v !~ /^[0-9]+$/)
			continue
		if (w ~ /^(timeout|nack|miss|fail)/)
			declared += v
		if (w ~ /^(nack|fail)/) {
			nacks += v
			hasnack = 1
		}
	}
	if (!run) {
		note(sprintf("%s commit of epoch %s without an UNPATH seen", rel(t), $3))
		return
	}
	n = 0
	nearly = 0
	for (cs in seenrun) {
		if (seenrun[cs] != runid)
			continue
		split(cs, parts, SUBSEP)
		if (missrun[cs] == runid) {
			n++
			nearly += failedearly[cs] == runid
			inrow[cs]++
			if (inrow[cs] > maxm)
				violate(t, sprintf("session %s of client %s changed under in %d epochs in a row (update_max_misses %d): not dropped; in epoch %s: %s",
					parts[2], parts[1], inrow[cs], maxm, $3, misswhat[cs]))
		} else {
			inrow[cs] = 0
		}
	}
	if (t >= from && t <= to) {
		wruns++
		note(sprintf("epoch %s: UNPATH %s, %d changed block(s) in, the last %s, commit %s (%s); %d session(s) missed",
			runfirst[runid] == $3 ? $3 : runfirst[runid] ".." $3, rel(runstart[runid]), nch[runid], nch[runid] ? rel(lastch[runid]) : "-", rel(t),
			commitfields(), n))
	}
	if (n > declared) {
		for (cs in seenrun)
			if (seenrun[cs] == runid && missrun[cs] == runid)
				break
		violate(t, sprintf("the commit of epoch %s declares %d missed ack(s) (%s) for %d session(s) changed under, e.g. %s",
			$3, declared, commitfields(), n, misswhat[cs]))
	}
	if (nearly && (!hasnack || nacks < nearly))
		violate(t, sprintf("epoch %s: %d session(s) whose unpath hook failed were changed under before the ack timeout, and the commit declares no nack for them (%s)",
			$3, nearly, commitfields()))
	for (c in escrun)
		if (escrun[c] == runid && alive[c]) {
			backrun[c] = runid
			backneed[c] = lastch[runid]
			backcommit[c] = t
		}
	run = 0
}

function commitfields(   s) {
	s = $0
	sub(/.* committed in /, "", s)
	sub(/^[^ ]* [^ ]* /, "", s)
	if (match(s, /subscribers [0-9]+.*/))
		s = substr(s, RSTART)
	return s
}

FNR == NR {
	base[$1] = 1
	next
}

{
	t = $1 + 0
	k = $2
}

k == "sm" {
	drop_run(t, "OpenSM stopped")
	next
}

k == "link" {
	lastlink = t
	sincelink = 0
	next
}

# the pass that ended first after a link change, and the next one when
# that came within 1 s (the change may have come in the middle of the
# first one's discovery)
k == "pass" {
	npass++
	if (++sincelink == 1)
		firstend = t
	topo[npass] = lastlink > 0 && (sincelink == 1 || (sincelink == 2 && firstend < lastlink + 1))
	next
}

k == "set" {
	sent[$3, $4, $5] = t
	spass[$3, $4, $5] = npass
	next
}

k == "resp" {
	key = $3 SUBSEP $4
	if (!(key in cont)) {
		cont[key] = $7
		next
	}
	old = cont[key]
	cont[key] = $7
	lids = ""
	n = 0
	for (i = 0; i < 64; i++) {
		lid = $4 * 64 + i
		if ((lid in base) && substr(old, 2 * i + 1, 2) != substr($7, 2 * i + 1, 2)) {
			if (++n <= 3)
				lids = lids " " lid
		}
	}
	if (!n)
		next
	if (n > 3)
		lids = lids " ..."
	if (!(($3, $4, $5) in sent)) {
		unseen++
		note(sprintf("%s block %d of switch %s changed without a Set seen", rel(t), $4, $3))
		next
	}
	on_change(sent[$3, $4, $5], t, $3, $4 + 0, lids, spass[$3, $4, $5])
	next
}

k == "unpath" {
	if (!run) {
		check_back(t)
		start_run(t, $3)
	}
	unpatht = t
	runep[runid] = $3
	next
}

k == "commit" {
	on_commit(t)
	next
}

k == "proc" {
	alive[$3] = 1
	esc[$3] = 0
	hookstart[$3] = ""
	next
}

k == "dead" {
	alive[$3] = 0
	deadt[$3] = t
	if (run)
		deadrun[$3] = runid
	next
}

k == "stop" {
	if ($3 in backrun)
		check_back1($3, t)
	alive[$3] = 0
	next
}

k == "reg" {
	c = $3
	if (c in cur) {
		prevs[c] = cur[c]
		pk = c SUBSEP cur[c]
		chain[c SUBSEP $4] = ((pk in missed) || (pk in failedhook)) ? t : chain[pk]
	} else {
		chain[c SUBSEP $4] = t
	}
	cur[c] = $4
	regt[c] = t
	sreg[c SUBSEP $4] = t
	next
}

# the client says it has no session (its registration refused, or it
# leaves): not under the promise until it registers again, then anew
k == "unreg" {
	if ($3 in cur) {
		prevs[$3] = cur[$3]
		delete cur[$3]
	}
	next
}

k == "hook" {
	c = $3
	s = $7 != "-" ? $7 : cur[c]
	if ($4 == "start") {
		hookstart[c] = t
		hookphase[c] = $5
		if ($5 == "repath") {
			esc[c] = 0
			backt[c] = t
		}
	} else {
		hookend[c] = t
		hookrc[c] = $8
		if ($5 == "unpath" && $8 == 0) {
			if (!esc[c]) {
				esc[c] = 1
				escsince[c] = t
			}
			if (run)
				escrun[c] = runid
		} else if ($5 == "unpath") {
			failedhook[c SUBSEP s] = 1
		}
	}
	next
}

END {
	drop_run(to, "the end of the case")
	check_back(to)
	for (i = 1; i <= nnotes; i++)
		print "# " notes[i]
	if (nviol) {
		print "VIOLATION " vtext(1)
		for (i = 2; i <= nviol && i <= 6; i++)
			print "# also: " vtext(i)
		if (nviol > 6)
			print "# and " nviol - 6 " more"
	}
	print "STATS", wchanges + 0, wexempt + 0, wnsess + 0
	if (!nviol)
		printf "OK %d changed base-LID block(s) in the window, %d of them by topology passes (exempt); %d session(s) under the promise; %d epoch(s) committed; %d change(s) under sessions that joined late\n",
			wchanges, wexempt, wnsess, wruns, wlate
}
