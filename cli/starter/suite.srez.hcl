# A suite spec: srezc suite build starter . -o out draws its tasks from
# the mutations it names (this folder's, or the embedded default's, such
# as queue_consumers), splits them and grades their difficulty.

suite_spec "starter" {
  description = "A starter suite from this folder's mutations and an embedded one."
  mutations   = ["starter_storage", "starter_queue", "queue_consumers"]
  tasks       = 8
  seed        = 1
  splits      = { train = 2, dev = 1, test = 1 }
}
