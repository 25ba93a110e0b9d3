// The machine profile (docs/CacheFrag.md, "The machine profile"): a run reads
// this machine's profile, names it, prices line transfers and atomics with
// its measurements (the median; each claim a range over their least and
// most, printed beside it) whether the run
// is idle or pinned to one core, decides whether lines pair from what it
// measured, and says which default it used without one. The runs here
// measure no transfer (cache_frag_measure_transfer=0), so they cannot tell
// which of the profile's states they met and are priced over all its rounds
// (machine-states.c: a run that can).
// The program is contended-atomic.c's: two threads bump one atomic, so the
// claim is the atomic's bound of the threads' time (by construction: with
// the profile's 45%, more than 0.3 of the run and at most 0.45 of it); its
// -DPLAIN twin bumps the word with plain stores, claimed at most at the
// profile's 35% for a line both threads keep writing.
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %S/contended-atomic.c -o %t
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread -DPLAIN %S/contended-atomic.c -o %t.plain
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/missing.txt %run %t 2> %t.dir/none.json
// RUN: FileCheck %s --check-prefix=NONE-JSON < %t.dir/none.json
// RUN: %python %S/Inputs/write_profile.py %t.dir/none.json %t.dir/profile.txt --transfer 100 123 150 --hammered 300000 350000 400000 --rmw 400000 450000 500000 --paired 0 10000 2000 --hammered-least 50000 60000 70000 | FileCheck %s --check-prefix=WRITTEN
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt:cache_frag_measure_transfer=0 %run %t 2>&1 | FileCheck %s --check-prefix=TEXT -DPROFILE=%t.dir/profile.txt
// DEFINE: %{check} = %python %S/Inputs/check_findings.py --only --expect true-sharing:global=total --threads 1,2 --min-share 0.3 --max-share 0.4501
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt:cache_frag_measure_transfer=0 %run %t 2> %t.dir/idle.json
// RUN: %{check} %t.dir/idle.json
// RUN: FileCheck %s --check-prefix=JSON < %t.dir/idle.json
// RUN: %if taskset %{ env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt:cache_frag_measure_transfer=0 taskset -c 0 %run %t 2> %t.dir/pinned.json %}
// RUN: %if taskset %{ %{check} %t.dir/pinned.json %}
// RUN: %if taskset %{ FileCheck %s --check-prefix=JSON < %t.dir/pinned.json %}
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/profile.txt:cache_frag_measure_transfer=0 %run %t.plain 2> %t.dir/plain.json
// RUN: %python %S/Inputs/check_findings.py --only --expect true-sharing:global=total --threads 1,2 --min-share 0.2 --max-share 0.3501 %t.dir/plain.json
// Each claim is a range over the profile's prices, the claim inside it.
// RUN: %python %S/Inputs/report_identities.py json %t.dir/idle.json %t.dir/plain.json | FileCheck %s --check-prefix=RANGE
// RANGE: identities ok 2
// The page prints the claims and their ranges as the text does.
// RUN: %efsan_view %t.dir/idle.json -o %t.dir/page.html
// RUN: %python %S/../viewer/Inputs/check_figures.py %t.dir/page.html %t.dir/idle.json | FileCheck %s --check-prefix=PAGE
// PAGE: figures ok: 1 findings
// RUN: %python -c "import json, sys; i = json.load(open(sys.argv[1]))['findings'][0]['impact']; assert i['low_share'] < i['share'] <= i['high_share'] and i['high_share'] > i['low_share'] + 0.05, i" %t.dir/idle.json
// A profile of another machine prices nothing here; none at all is said so.
// RUN: sed 's/^key .*/key SomeOtherCPU-1-2-64cpus/' %t.dir/profile.txt > %t.dir/other.txt
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_machine_profile=%t.dir/other.txt %run %t 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: env ESAN_OPTIONS=cache_frag_min_share=0:cache_frag_machine_profile=none %run %t 2>&1 | FileCheck %s --check-prefix=OFF
// NONE-JSON: "machine": "{{[^"]+-[0-9]+-[0-9]+-[0-9]+cpus}}",
// NONE-JSON-NEXT: "machine_profile": null,
// NONE-JSON-NEXT: "machine_profile_missing": "none measured on this machine: efsan-calibrate makes one",
// WRITTEN: profile of {{.+}}cpus
// TEXT: A line moving between cores costs 123 ns (machine profile: median of its 3 rounds, 100-150 ns; which state this run met is not known (cache_frag_measure_transfer=0)); 128-byte line pairs: no (machine profile: the other line of a 128-byte pair cost a thread 0% of its time, 0-1% measured).
// TEXT-NEXT: Machine profile: [[PROFILE]] (updated 2026-01-02T03:04:05Z, 3 measurements): a thread loses at most 35% of its time to a line another thread keeps writing (5-40% measured; 35% in code built without optimisation), 45% to an atomic both bump (40-50%); line transfers as above.
// TEXT: Fixing the findings below saves {{.*}} of CPU time ({{[0-9.]+}}% of the run, {{[0-9.]+}}-{{[0-9.]+}}% over the machine profile's range; about
// TEXT: #1 true sharing on cache line {{.*}}: the fix saves {{.*}} of CPU time ({{[0-9.]+}}% of the run, {{[0-9.]+}}-{{[0-9.]+}}% over the machine profile's range; about
// JSON: "transfer_ns": 123,
// JSON-NEXT: "transfer_source": "machine profile: median of its 3 rounds, 100-150 ns; which state this run met is not known (cache_frag_measure_transfer=0)",
// JSON: "machine_profile": {"path": "{{.*}}profile.txt", "updated": "2026-01-02T03:04:05Z", "measurements": 3, "rounds_without_cost": 0, "state_rounds": 0, "transfer_ns": {"low": 100, "high": 150}, "contended_share": {"point": 0.350000, "low": 0.050000, "high": 0.400000}, "contended_rmw_share": {"point": 0.450000, "low": 0.400000, "high": 0.500000}, "contended_rmw_removed_share": {"point": 0.450000, "low": 0.400000, "high": 0.500000}, "contended_rmw_work_1_share": null, "contended_rmw_removed_work_1_share": null, "contended_unoptimised_share": {"point": 0.350000, "low": 0.300000, "high": 0.400000}, "contended_loop_shares": null},
// OTHER: A line moving between cores costs {{[0-9]+}} ns ({{measured|default}}
// OTHER-NEXT: Machine profile: none for {{.+}}cpus (the profile file is of another machine): line transfers measured by this run; a thread loses at most 65% of its time to a line another thread keeps writing (75% in code built without optimisation), 90% to an atomic both bump (the defaults).
// OFF: Machine profile: none for {{.+}}cpus (cache_frag_machine_profile=none):
