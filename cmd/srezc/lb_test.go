package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// startServe runs `srezc serve` on a free loopback port and returns its
// URL; the process is stopped when the test ends.
func startServe(t *testing.T, args []string, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(append(os.Environ(), "SREZC_TEST_AS_SREZC=1"), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := regexp.MustCompile(`on (http://127\.0\.0\.1:[0-9]+)`)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := addr.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return m[1]
		}
	}
	t.Fatalf("srezc serve did not start")
	return ""
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

type lbReply struct {
	Episode     string `json:"episode"`
	Step        int    `json:"step"`
	Done        bool   `json:"done"`
	Observation string `json:"observation"`
	Token       string `json:"token"`
	Grader      *struct {
		Reward float64 `json:"reward"`
	} `json:"grader"`
}

func lbPost(t *testing.T, url string, body any) lbReply {
	t.Helper()
	js, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytes.NewReader(js))
	req.Header.Set("X-Srezc-Grader-Token", "g")
	req.Header.Set("X-Srezc-Trainer-Token", "tr")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("POST %s: %d %s", url, resp.StatusCode, data)
	}
	var r lbReply
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func stepsServed(t *testing.T, url string) string {
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`(?m)^srezc_steps_total ([0-9.e+]+)$`).FindSubmatch(data)
	if m == nil {
		return "0"
	}
	return string(m[1])
}

// Two srezc serve replicas behind nginx (Debian's, round-robin, on
// loopback): an episode's steps alternate between the replicas, each
// carrying the last replay token, and every reply equals one server's.
func TestReplicasBehindNginx(t *testing.T) {
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("nginx is not installed (.ci/run installs it)")
		}
		t.Fatal("nginx is not installed")
	}
	env := []string{"SREZC_TOKEN_KEY=a key both replicas share, 32+ bytes", "SREZC_GRADER_TOKEN=g", "SREZC_TRAINER_TOKEN=tr"}
	a, b := startServe(t, nil, env...), startServe(t, nil, env...)
	// The single server runs from a compiled suite file, with no sources.
	dir := t.TempDir()
	suite := filepath.Join(dir, "default.srez.suite")
	compile := exec.Command(os.Args[0], "compile", "--suite", suite)
	compile.Env = append(os.Environ(), "SREZC_TEST_AS_SREZC=1")
	if out, err := compile.CombinedOutput(); err != nil {
		t.Fatalf("compile --suite: %v\n%s", err, out)
	}
	single := startServe(t, []string{suite}, env...)
	port := freePort(t)
	conf := fmt.Sprintf(`worker_processes 1;
daemon off;
pid %[1]s/nginx.pid;
error_log stderr notice;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  upstream srezc { server %[2]s; server %[3]s; keepalive 8; }
  server {
    listen 127.0.0.1:%[4]d;
    location / {
      proxy_pass http://srezc;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Srezc-Grader-Token $http_x_srezc_grader_token;
      proxy_set_header X-Srezc-Trainer-Token $http_x_srezc_trainer_token;
    }
  }
}
`, dir, strings.TrimPrefix(a, "http://"), strings.TrimPrefix(b, "http://"), port)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"))
	errs, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// nginx says "start worker process" once it listens: wait for that
	// line, or for nginx to exit; no deadline a slow machine could miss.
	var nlog bytes.Buffer // read only after exited is closed
	ready, exited := make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(errs)
		started := false
		for sc.Scan() {
			nlog.WriteString(sc.Text() + "\n")
			if !started && strings.Contains(sc.Text(), "start worker process") {
				started = true
				close(ready)
			}
		}
		cmd.Wait()
		close(exited)
	}()
	// SIGTERM: nginx's master stops its worker, which holds the stderr
	// pipe too, so the reader above sees the end of it.
	t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); <-exited })
	lb := fmt.Sprintf("http://127.0.0.1:%d", port)
	select {
	case <-ready:
	case <-exited:
		t.Fatalf("nginx exited: %s", nlog.String())
	}
	plan := []string{"check_dependencies(web_server)", "inspect_logs(database)", "restart_service(database)", "inspect_metrics(web_server)",
		`resolve_incident("database: crashed", "restarted the database")`}
	for _, seed := range []int{1, 2, 3} {
		id := fmt.Sprint("lb-", seed)
		via := lbPost(t, lb+"/v1/episodes", map[string]any{"task": "db_crash", "seed": seed, "id": id})
		one := lbPost(t, single+"/v1/episodes", map[string]any{"task": "db_crash", "seed": seed, "id": id})
		if via.Observation != one.Observation {
			t.Fatal("the intro differs behind nginx")
		}
		token := via.Token
		for k, act := range plan {
			via = lbPost(t, lb+"/v1/episodes/"+id+"/step", map[string]any{"step": k + 1, "action": act, "token": token})
			one = lbPost(t, single+"/v1/episodes/"+id+"/step", map[string]any{"step": k + 1, "action": act})
			if via.Observation != one.Observation || via.Done != one.Done || via.Token != one.Token || via.Grader.Reward != one.Grader.Reward {
				t.Fatalf("seed %d step %d differs behind nginx:\n%q\n%q", seed, k+1, via.Observation, one.Observation)
			}
			token = via.Token
		}
	}
	// Round-robin spread the steps over both replicas.
	sa, sb := stepsServed(t, a), stepsServed(t, b)
	if sa == "0" || sb == "0" {
		t.Errorf("steps served: replica a %s, replica b %s; round-robin should use both", sa, sb)
	}
	t.Logf("steps served by replica a: %s, by b: %s", sa, sb)
}
