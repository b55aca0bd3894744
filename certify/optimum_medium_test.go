package certify_test

func init() {
	handCounted["api_worker_squeeze"] = handCount{3, "inspect_logs(web_server) shows the worker pool overflowing, unlike both distractors and every other web_server fault; one write (max_workers); resolve"}
	handCounted["jobs_retry_churn"] = handCount{3, "inspect_logs(message_queue) shows failing jobs retried 5 times while the backlog grows, unlike the work_mem distractor and every other queue fault; one write (retry_limit); resolve"}
}
