"""stop_and_continue.py PROGRAM: runs PROGRAM (its stderr is captured),
stops it with SIGSTOP 8 times for 70..150 ms at random moments, then lets it
finish, and prints its stderr. Every stop makes the sampler wake late; where
in the sample period it wakes is random."""
import random, signal, subprocess, sys, time

p = subprocess.Popen([sys.argv[1]], stderr=subprocess.PIPE)
for _ in range(8):
    time.sleep(random.uniform(0.02, 0.08))
    p.send_signal(signal.SIGSTOP)
    time.sleep(random.uniform(0.07, 0.15))
    p.send_signal(signal.SIGCONT)
p.send_signal(signal.SIGUSR1)  # the program may end now
err = p.stderr.read()
status = p.wait()
sys.stdout.buffer.write(err)
sys.exit(status)
