(** * The paper's bug finder (Section 3 of the paper, Figs. 8 and 9), without pruning.
    The bug finder the Go engine runs (methods [Next] and [FindBugs] of [engine.Engine],
    engine/bugfinder.go) differs in its classification and prunes: it is modelled in
    [Engine.v].

    [find_bugs ask p] is the status stream, a function [nat -> status] like [run].
    It is parameterised by a satisfiability oracle [ask : bexpr -> option bool]
    ([Some true]: satisfiable, [Some false]: unsatisfiable, [None]: unknown), passed
    as an ordinary argument.  Its contract, [oracle_sound], only asks for sound
    answers; the theorems of [Bugfinderproof.v] take it as an explicit premise
    where they need it.  An error state is reported unless the oracle proves its
    path condition unsatisfiable.  Proofs in [Bugfinderproof.v]. *)

From Coq Require Import List.
From Certsym Require Import Syntax Concrete Symbolic Expand Run.
Import ListNotations.

Inductive status : Type :=
  | Pending                      (** a state was explored, no bug reported *)
  | BugFound (t : sym_state)     (** an error state was reached *)
  | Finished.                    (** the queue is empty: exploration is over *)

(** The oracle's contract: its definite answers are correct. *)
Definition oracle_sound (ask : bexpr -> option bool) : Prop :=
  (forall phi, ask phi = Some true -> exists V, sat V phi) /\
  (forall phi, ask phi = Some false -> forall V, ~ sat V phi).

(** Classification of one element of the [run] stream. *)
Definition classify (ask : bexpr -> option bool) (o : option sym_state) : status :=
  match o with
  | None => Finished
  | Some t =>
      if is_error (prog t) then
        match ask (pc t) with
        | Some false => Pending
        | _ => BugFound t
        end
      else Pending
  end.

Definition init (p : stmt) : list sym_state := [sym_init p].

Definition find_bugs (ask : bexpr -> option bool) (p : stmt) (n : nat) : status :=
  classify ask (run (init p) n).
