(** * The pruned breadth-first search: the search the Go engine runs by default
    (Go: [method NextState of engine.Engine] in engine/search.go, without [--no-prune]).

    When a state is taken from the front of the queue, each of its successors (in the
    order of [expand]) is asked to the satisfiability oracle; a successor is dropped
    only when the oracle answers [Some false] ("unsatisfiable").  An unknown answer
    ([None]) keeps it, as a satisfiable one does.  The initial queue is never pruned
    (Go: the initial state [⟨true, id, p⟩] is pushed without a query).

    The oracle may answer differently from one iteration to the next: it is a family
    [ask : nat -> bexpr -> option bool], [ask n] being the answers given while the state
    of iteration [n] is classified and its successors are pruned.  This covers a solver
    whose time or resource bound makes it answer "unknown" on one query and decide an
    equal formula elsewhere (Go caches one answer per path-condition node; two nodes
    with equal formulas may get different answers).  A fixed oracle is the family
    [fun _ => ask].  The queue is therefore the breadth-first queue of [Run.v] with a
    successor function that depends on the iteration ([tqueue]); its fairness lemma
    ([Pruneproof.tqueue_fair]) is proved for every such family, and for a constant
    family [tqueue] is [Run.queue].  The unpruned stream [Run.run] is the pruned stream
    of the oracle that never answers ([Pruneproof.prun_never]).

    The contract of the oracle ([Bugfinder.oracle_sound] at every iteration) is a
    premise of the theorems that need it.  Proofs in [Pruneproof.v]. *)

From Coq Require Import List.
From Certsym Require Import Syntax Symbolic Expand Run Bugfinder.
Import ListNotations.

(** ** A breadth-first queue whose successor function depends on the iteration *)

(** The queue after [n] iterations, iteration [i] using [succ i]. *)
Fixpoint tqueue {A : Type} (succ : nat -> A -> list A) (n : nat) (l : list A) : list A :=
  match n with
  | O => l
  | S n' => tqueue (fun i => succ (S i)) n' (bfs_step (succ 0) l)
  end.

(** The [n]-th element of the stream: the element taken from the front at iteration [n]. *)
Definition tnth {A : Type} (succ : nat -> A -> list A) (l : list A) (n : nat) : option A :=
  hd_error (tqueue succ n l).

(** ** Pruning *)

(** A successor is kept unless the oracle proves its path condition unsatisfiable. *)
Definition keep (ask : bexpr -> option bool) (t : sym_state) : bool :=
  match ask (pc t) with
  | Some false => false
  | _ => true
  end.

(** The successors that pruning keeps, in the order of [expand]. *)
Definition psucc (ask : bexpr -> option bool) (t : sym_state) : list sym_state :=
  filter (keep ask) (expand_state t).

(** [prun ask l]: the stream of states explored by the pruned search from the queue [l];
    the successors of the state of iteration [n] are pruned with the answers [ask n]. *)
Definition prun (ask : nat -> bexpr -> option bool) (l : list sym_state)
    : nat -> option sym_state :=
  tnth (fun n => psucc (ask n)) l.

(** The oracle that never answers ([--no-prune], or a solver that always gives up). *)
Definition never : bexpr -> option bool := fun _ => None.

(** The paper's bug finder (Fig. 8, [display] with the classification of
    [Bugfinder.classify]) over the pruned stream; element [n] is classified with the
    answers [ask n]. *)
Definition pfind_bugs (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : status :=
  classify (ask n) (prun ask (init p) n).
