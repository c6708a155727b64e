package distrib_test

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"certsym/internal/corpus"
	"certsym/internal/testprog"
)

// TestSlurm starts a single-node Slurm of its own (munged, slurmctld and slurmd from Debian's
// packages, as child processes, with a configuration in a temporary folder: no cgroups
// (proctrack/linuxproc, task/none), no systemd), a NATS server, and submits deploy/slurm.sh
// with sbatch: srun starts the workers on the job's tasks, the batch script runs the coordinator.
// The report in the job's output must be run --workers 2's. It runs with CERTSYM_SLURM=1 (make
// check-slurm), as root or as the user Slurm then runs as.
func TestSlurm(t *testing.T) {
	if os.Getenv("CERTSYM_SLURM") != "1" {
		t.Skip("the single-node Slurm test runs with CERTSYM_SLURM=1 (make check-slurm)")
	}
	for _, tool := range []string{"munged", "slurmctld", "slurmd", "sbatch", "sinfo"} {
		testprog.NeedTool(t, tool, "slurm")
	}
	url := startNATS(t)
	bin := certsym(t, "")
	d := t.TempDir()
	os.Chmod(d, 0o755)
	key := make([]byte, 1024)
	rand.Read(key)
	if err := os.WriteFile(filepath.Join(d, "munge.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(d, "munge.socket")
	daemon(t, "munged", "-F", "--force", "--key-file="+filepath.Join(d, "munge.key"), "--socket="+socket,
		"--pid-file="+filepath.Join(d, "munged.pid"), "--log-file="+filepath.Join(d, "munged.log"), "--seed-file="+filepath.Join(d, "munge.seed"))
	host, err := exec.Command("hostname", "-s").Output()
	if err != nil {
		t.Fatal(err)
	}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSpace(string(host))
	for _, sub := range []string{"state", "spool"} {
		os.MkdirAll(filepath.Join(d, sub), 0o755)
	}
	conf := filepath.Join(d, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=certsym
SlurmctldHost=%[1]s(127.0.0.1)
SlurmUser=%[2]s
SlurmdUser=%[2]s
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
AuthType=auth/munge
AuthInfo=socket=%[5]s
CredType=cred/munge
StateSaveLocation=%[6]s/state
SlurmdSpoolDir=%[6]s/spool
SlurmctldPidFile=%[6]s/slurmctld.pid
SlurmdPidFile=%[6]s/slurmd.pid
SlurmctldLogFile=%[6]s/slurmctld.log
SlurmdLogFile=%[6]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=2 RealMemory=8000 State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
`, name, me.Username, freePort(t), freePort(t), socket, d)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", conf)
	daemon(t, "slurmctld", "-D", "-f", conf)
	time.Sleep(time.Second)
	daemon(t, "slurmd", "-D", "-f", conf)
	deadline := time.Now().Add(time.Minute)
	for {
		out, _ := exec.Command("sinfo", "-h", "-o", "%t").Output()
		if strings.TrimSpace(string(out)) == "idle" {
			break
		}
		if time.Now().After(deadline) {
			logs, _ := os.ReadFile(filepath.Join(d, "slurmctld.log"))
			t.Fatalf("the Slurm node is not idle after a minute (sinfo: %q)\n%s", out, logs)
		}
		time.Sleep(300 * time.Millisecond)
	}
	script := filepath.Join(corpus.Root(), "deploy", "slurm.sh")
	for _, p := range []string{"factorial_mutant_swapped_update.imp", "all_bugs_three_kinds_in_order.imp"} {
		file := filepath.Join(corpus.Root(), "testdata", p)
		opts := []string{"--split", "5"}
		if strings.HasPrefix(p, "all_bugs") {
			opts = append(opts, "--all-bugs")
		}
		single, _, scode := runCertsym(t, bin, append([]string{"run", file, "--quiet", "--workers", "2"}, opts[2:]...)...)
		out := filepath.Join(d, p+".out")
		cmd := exec.Command("sbatch", append([]string{"--wait", "--ntasks=2", "--mem-per-cpu=1G", "--output=" + out, "--error=" + out + ".err", script, url, file}, opts...)...)
		cmd.Env = append(os.Environ(), "CERTSYM="+bin)
		start := time.Now()
		msg, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("sbatch: %v %s", err, msg)
		}
		report, _ := os.ReadFile(out)
		if code != scode || normalize(string(report)) != normalize(single) {
			t.Errorf("%s: sbatch exit %d (%s), run --workers 2's %d; %s\nrun --workers 2:\n%s\nthe job's output:\n%s", p, code, msg, scode,
				firstDiff(normalize(single), normalize(string(report))), single, report)
		} else {
			t.Logf("%s: sbatch --wait --ntasks=2 deploy/slurm.sh: run --workers 2's report, exit %d, in %v", p, code, time.Since(start).Round(time.Millisecond))
		}
	}
}

// daemon starts a program in the foreground of its own (it is killed at the end of the test).
func daemon(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	time.Sleep(300 * time.Millisecond)
}
