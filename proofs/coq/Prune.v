(** * The pruned breadth-first search: the search the Go engine runs by default
    (Go: [method NextState of engine.Engine] in engine/search.go, without [--no-prune]).

    When a state is taken from the front of the queue, each of its successors (in the
    order of [expand]) is asked to the satisfiability oracle; a successor is dropped
    only when the oracle answers [Some false] ("unsatisfiable").  An unknown answer
    ([None]) keeps it, as a satisfiable one does.  The initial queue is never pruned
    (Go: the initial state [⟨true, id, p⟩] is pushed without a query).

    The queue discipline is [Run.bfs_nth], unchanged: only the successor function
    differs, so the generic fairness lemma [Runproof.bfs_fair] applies as it is.
    The unpruned stream [Run.run] is the pruned stream of an oracle that never
    answers ([Pruneproof.prun_never]).

    The oracle is an ordinary argument; its contract ([Bugfinder.oracle_sound]) is a
    premise of the theorems that need it.  Proofs in [Pruneproof.v]. *)

From Coq Require Import List.
From Certsym Require Import Syntax Symbolic Expand Run Bugfinder.
Import ListNotations.

(** A successor is kept unless the oracle proves its path condition unsatisfiable. *)
Definition keep (ask : bexpr -> option bool) (t : sym_state) : bool :=
  match ask (pc t) with
  | Some false => false
  | _ => true
  end.

(** The successors that pruning keeps, in the order of [expand]. *)
Definition psucc (ask : bexpr -> option bool) (t : sym_state) : list sym_state :=
  filter (keep ask) (expand_state t).

(** [prun ask l]: the stream of states explored by the pruned search from the queue [l]. *)
Definition prun (ask : bexpr -> option bool) (l : list sym_state) : nat -> option sym_state :=
  bfs_nth (psucc ask) l.

(** The oracle that never answers ([--no-prune], or a solver that always gives up). *)
Definition never : bexpr -> option bool := fun _ => None.

(** The paper's bug finder (Fig. 8, [display] with the classification of
    [Bugfinder.classify]) over the pruned stream. *)
Definition pfind_bugs (ask : bexpr -> option bool) (p : stmt) (n : nat) : status :=
  classify ask (prun ask (init p) n).
