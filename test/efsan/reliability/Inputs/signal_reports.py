"""signal_reports.py PROGRAM DIR: checks report_on_signals and report_signal
on a program that prints "ready" and then waits for signals forever."""
import glob, json, os, signal, subprocess, sys, time

program, directory = sys.argv[1], sys.argv[2]


def default_signals():
    # lit, or a shell's "&", may start us with SIGINT ignored.
    for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def start(options, prefix, preexec=default_signals):
    env = dict(os.environ, ESAN_OPTIONS=options + ":report_format=json:log_path=" + prefix)
    p = subprocess.Popen([program], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=preexec)
    if p.stdout.readline() != b"ready\n":
        sys.exit("%s: did not start" % options)
    return p


def wait_for(path):
    for _ in range(6000):  # a generous bound, not a timing assumption
        if os.path.exists(path):
            with open(path) as f:
                text = f.read()
            try:
                return json.loads(text)
            except ValueError:
                pass  # still being written
        time.sleep(0.01)
    sys.exit("no complete report %s" % path)


def report_files(prefix):
    return sorted(glob.glob(prefix + ".*"))


# Two dumps on SIGUSR2 while the program runs, then SIGTERM: a report at the
# end too, and the process still dies of SIGTERM.
for name in ["TERM", "INT", "HUP"]:
    prefix = os.path.join(directory, name)
    p = start("report_on_signals=1:report_signal=12", prefix)
    for n in (1, 2):
        p.send_signal(signal.SIGUSR2)
        report = wait_for("%s.%d.%d" % (prefix, p.pid, n))
        assert report["regions"]["heap"] == 50, report
    p.send_signal(getattr(signal, "SIG" + name))
    try:
        status = p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit("SIG%s did not end the program" % name)
    if status != -getattr(signal, "SIG" + name):
        sys.exit("SIG%s: status %d, stderr %r" % (name, status, p.stderr.read()))
    final = wait_for("%s.%d" % (prefix, p.pid))
    assert final["regions"]["heap"] == 50, final
    files = report_files(prefix)
    assert len(files) == 3, files

# By default too, and with report_signal=15 SIGTERM writes a report each
# time and the program keeps running (SIGINT still ends it with a report).
prefix = os.path.join(directory, "default")
p = start("report_signal=15", prefix)
for n in (1, 2):
    p.send_signal(signal.SIGTERM)
    report = wait_for("%s.%d.%d" % (prefix, p.pid, n))
    assert report["regions"]["heap"] == 50, report
assert p.poll() is None, "report_signal=15: SIGTERM ended the program"
p.send_signal(signal.SIGINT)
assert p.wait(timeout=120) == -signal.SIGINT
assert wait_for("%s.%d" % (prefix, p.pid))["regions"]["heap"] == 50
assert len(report_files(prefix)) == 3, report_files(prefix)

# With report_on_signals=0 SIGTERM ends the program without a report (the
# report file, created at start-up, stays empty).
prefix = os.path.join(directory, "off")
p = start("report_on_signals=0", prefix)
p.send_signal(signal.SIGTERM)
assert p.wait(timeout=120) == -signal.SIGTERM
assert os.path.getsize("%s.%d" % (prefix, p.pid)) == 0

# A signal the program ignores at start-up (nohup) stays ignored.
prefix = os.path.join(directory, "nohup")
p = start("report_on_signals=1", prefix,
          preexec=lambda: (default_signals(),
                           signal.signal(signal.SIGHUP, signal.SIG_IGN)))
p.send_signal(signal.SIGHUP)
time.sleep(0.2)
assert p.poll() is None, "SIGHUP was ignored before efsan started"
p.send_signal(signal.SIGTERM)
assert p.wait(timeout=120) == -signal.SIGTERM
wait_for("%s.%d" % (prefix, p.pid))
print("ok")
