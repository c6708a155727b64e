(** * The breadth-first exploration [run] (Section 3 of the paper, Fig. 6).
    Go: the method [NextState] of [engine.Engine] (engine/search.go) with the options
    [Strategy: BFS] and [NoPrune] ([--no-prune]); the default, pruned search is
    [Prune.prun], of which [run] is the special case [Pruneproof.prun_never].

    Streams are represented as functions [nat -> option sym_state]: [run l n] is the
    state taken from the front of the queue at iteration [n], or [None] once the
    queue is empty (the stream has then reached its end and stays there).
    The queue discipline is written once, generically over the successor function,
    so that its fairness lemma ([Runproof.bfs_fair]) can be reused by later
    strategies.  Proofs in [Runproof.v]. *)

From Coq Require Import List.
From Certsym Require Import Syntax Symbolic Expand.
Import ListNotations.

(** One iteration: take the front of the queue, append its successors at the back. *)
Definition bfs_step {A : Type} (succ : A -> list A) (l : list A) : list A :=
  match l with
  | [] => []
  | t :: l' => l' ++ succ t
  end.

(** The queue after [n] iterations. *)
Fixpoint queue {A : Type} (succ : A -> list A) (n : nat) (l : list A) : list A :=
  match n with
  | O => l
  | S n' => queue succ n' (bfs_step succ l)
  end.

(** The [n]-th element of the stream: the state expanded at iteration [n]. *)
Definition bfs_nth {A : Type} (succ : A -> list A) (l : list A) (n : nat) : option A :=
  hd_error (queue succ n l).

(** [run l]: the stream of symbolic states explored from the initial queue [l]. *)
Definition run (l : list sym_state) : nat -> option sym_state :=
  bfs_nth expand_state l.
