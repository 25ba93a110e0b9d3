// efsan-view shows the names a program gave parts of its memory
// (__efsan_name_range) where it shows objects: the working set's data
// structures of a shared segment carved into parts (the parent's and a
// forked worker's reports), and cache-frag's two named parts on one line
// (the finding's title, its objects, the line map's ranges with their
// offsets in each part). Checked in headless Chromium against the reports.
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: %clang -O2 -fsanitize=efficiency-working-set %S/../working-set/named-ranges.c -o %t.ws
// RUN: env ESAN_OPTIONS=report_format=json:log_path=%t.dir/ws %run %t.ws
// RUN: %efsan_view %t.dir/ws.* -o %t.dir/page-ws.html
// RUN: %python %S/Inputs/check_page.py %t.dir/page-ws.html %t.dir/page-ws.png %t.dir/ws.* | FileCheck %s --check-prefix=WS
// WS-COUNT-2: page ok: pid {{[0-9]+}} working-set:
// RUN: FileCheck %s --check-prefix=WS-HTML < %t.dir/page-ws.html
// WS-HTML-DAG: &quot;Buffer Blocks&quot; in /dev/zero (deleted)
// WS-HTML-DAG: &quot;LWLock Array&quot; in /dev/zero (deleted)
// WS-HTML-DAG: &quot;Proc Array&quot; in /dev/zero (deleted)
// RUN: %clang -O2 -g -fsanitize=efficiency-cache-frag -pthread %S/../cache-frag/named-ranges.c -o %t.cf
// RUN: env ESAN_OPTIONS=report_format=json:cache_frag_min_share=0:cache_frag_sample_period=1:log_path=%t.dir/cf %run %t.cf parts
// RUN: %efsan_view %t.dir/cf.* -o %t.dir/page-cf.html
// RUN: %python %S/Inputs/check_page.py %t.dir/page-cf.html %t.dir/page-cf.png %t.dir/cf.* | FileCheck %s --check-prefix=CF
// CF: page ok: pid {{[0-9]+}} cache-frag: 1 findings (false-sharing), 0 structs
// RUN: FileCheck %s --check-prefix=CF-HTML < %t.dir/page-cf.html
// CF-HTML: false sharing on named range &quot;{{Left|Right}} Counter&quot; in /dev/zero (deleted)
// CF-HTML-DAG: <td>&quot;Left Counter&quot; +0..7</td>
// CF-HTML-DAG: <td>&quot;Right Counter&quot; +0..7</td>
// CF-HTML-DAG: <td>unknown</td><td>named range &quot;Left Counter&quot; in /dev/zero (deleted)
// CF-HTML-DAG: <td>unknown</td><td>named range &quot;Right Counter&quot; in /dev/zero (deleted)
