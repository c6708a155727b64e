(** * Executable expansion of a symbolic state (Fig. 7 of the paper, extended;
    spec/SEMANTICS.md table [E-...]; Go: the method [Expand] of
    [engine.Engine], engine/expand.go).
    Successors are listed in the order of the table.  Proofs in [Expandproof.v]. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete Symbolic.
Import ListNotations.

(** [⟨φ', S', p'⟩ ↦ ⟨φ', S', p' ; q⟩] *)
Definition then_do (q : stmt) (t : sym_state) : sym_state :=
  let '(phi, ss, p) := t in (phi, ss, Seq p q).

(** The [fail] successor, present only when the expression has a division. *)
Definition fail_succ (divs : list aexpr) (phi D : bexpr) (ss : sstore) : list sym_state :=
  if has_div divs then [(Band phi (Bnot D), ss, Fail)] else [].

Fixpoint expand (phi : bexpr) (ss : sstore) (p : stmt) : list sym_state :=
  match p with
  | Skip | Fail => []
  | Assign x a =>
      let e := asubst ss a in
      (Band phi (aD e), supdate ss x e, Skip) :: fail_succ (adivs a) phi (aD e) ss
  | If b p1 p2 =>
      let c := bsubst ss b in
      (Band phi (Band (bD c) c), ss, p1)
        :: (Band phi (Band (bD c) (Bnot c)), ss, p2)
        :: fail_succ (bdivs b) phi (bD c) ss
  | While b p1 => [(phi, ss, If b (Seq p1 (While b p1)) Skip)]
  | Assume b =>
      let c := bsubst ss b in
      (Band phi (Band (bD c) c), ss, Skip) :: fail_succ (bdivs b) phi (bD c) ss
  | Seq p1 q =>
      match p1 with
      | Skip => [(phi, ss, q)]
      | _ => map (then_do q) (expand phi ss p1)
      end
  end.

Definition expand_state (t : sym_state) : list sym_state :=
  let '(phi, ss, p) := t in expand phi ss p.
