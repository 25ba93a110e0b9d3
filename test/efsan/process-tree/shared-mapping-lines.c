// Each working-set JSON report lists the lines of every shared mapping the
// process touched, by the mapping's device, inode and offset and in lines of
// the mapped object: the parent of Inputs/shared_workers.c touched [0, 32)
// of its MAP_SHARED anonymous mapping, worker k [32 + 48k, 96 + 48k), at
// the same address (fork) but what names them is the object, the kernel's
// "/dev/zero (deleted)", one inode for the four processes.
// RUN: %clang -O2 -g -fsanitize=efficiency-working-set %S/Inputs/shared_workers.c -o %t
// RUN: rm -rf %t.tmp && mkdir %t.tmp
// RUN: env TMPDIR=%t.tmp %run %t
// RUN: %python %S/Inputs/check_tree_dir.py %t.tmp/efsan.* 3 working-set shared-mapping-lines.c.tmp \
// RUN:   "[len(r['shared_mappings']) for r in reports] == [1, 1, 1, 1]" \
// RUN:   "[r['shared_mappings'][0]['ranges'] for r in reports] == [[[0, 32]], [[32, 64]], [[80, 64]], [[128, 64]]]" \
// RUN:   "[r['shared_mappings'][0]['lines'] for r in reports] == [32, 64, 64, 64]" \
// RUN:   "len({(m['device'], m['inode'], m['offset'], m['name']) for r in reports for m in r['shared_mappings']}) == 1" \
// RUN:   "reports[0]['shared_mappings'][0]['name'] == '/dev/zero (deleted)'" \
// RUN:   "[r['process_tree']['name'] for r in reports] == ['shared-mapping-lines.c.tmp', 'worker', 'worker', 'worker']" \
// RUN:   "[r['process_tree']['forked'] for r in reports] == [False, True, True, True]" \
// RUN:   "all(o['lines'] == 64 for r in reports[1:] for o in r['objects'] if o['kind'] == 'mapping')"
// The root's report on stderr has them too.
// RUN: env ESAN_OPTIONS=report_format=json %run %t 2> %t.json
// RUN: %python -c "import json, sys; d = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]; assert d['shared_mappings'][0]['ranges'] == [[0, 32]], d['shared_mappings']" %t.json
