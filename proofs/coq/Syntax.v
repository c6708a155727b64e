(** * Syntax of core IMP (spec/SEMANTICS.md, "Core syntax").

    Arithmetic expressions over mathematical integers, boolean expressions and
    statements.  There is no [assert] and there are no macros: the parser and the
    refinement layer desugar them before anything reaches this development. *)

From Coq Require Import ZArith String List Bool.
Import ListNotations.

Definition var := string.

Inductive aexpr : Type :=
  | Cst (n : Z)
  | Var (x : var)
  | Neg (a : aexpr)
  | Add (a1 a2 : aexpr)
  | Sub (a1 a2 : aexpr)
  | Mul (a1 a2 : aexpr)
  | Div (a1 a2 : aexpr)   (** truncating division, [Z.quot] *)
  | Mod (a1 a2 : aexpr).  (** remainder of the truncating division, [Z.rem] *)

Inductive bexpr : Type :=
  | Btrue
  | Bfalse
  | Beq (a1 a2 : aexpr)
  | Bne (a1 a2 : aexpr)
  | Blt (a1 a2 : aexpr)
  | Ble (a1 a2 : aexpr)
  | Bgt (a1 a2 : aexpr)
  | Bge (a1 a2 : aexpr)
  | Bnot (b : bexpr)
  | Band (b1 b2 : bexpr)
  | Bor (b1 b2 : bexpr).

Inductive stmt : Type :=
  | Skip
  | Fail
  | Assign (x : var) (a : aexpr)
  | Seq (p q : stmt)
  | If (b : bexpr) (p q : stmt)
  | While (b : bexpr) (p : stmt)
  | Assume (b : bexpr).

(** ** Error states: the head of a program is [fail]. *)

Fixpoint head (p : stmt) : stmt :=
  match p with
  | Seq p1 _ => head p1
  | _ => p
  end.

(** The bug classifier of the bug finder (Go: [spec.IsError]). *)
Definition is_error (p : stmt) : bool :=
  match head p with
  | Fail => true
  | _ => false
  end.

(** ** Divisors and the definedness formula [D]

    [adivs a] lists the divisors of the divisions and remainders of [a] in
    left-to-right post-order; [D] is the conjunction of [r != 0] over them. *)

Fixpoint adivs (a : aexpr) : list aexpr :=
  match a with
  | Cst _ | Var _ => []
  | Neg a1 => adivs a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 => adivs a1 ++ adivs a2
  | Div a1 a2 | Mod a1 a2 => adivs a1 ++ adivs a2 ++ [a2]
  end.

Fixpoint bdivs (b : bexpr) : list aexpr :=
  match b with
  | Btrue | Bfalse => []
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 =>
      adivs a1 ++ adivs a2
  | Bnot b1 => bdivs b1
  | Band b1 b2 | Bor b1 b2 => bdivs b1 ++ bdivs b2
  end.

(** Conjunction of a list of formulas; [true] for the empty list. *)
Fixpoint big_and (l : list bexpr) : bexpr :=
  match l with
  | [] => Btrue
  | [c] => c
  | c :: cs => Band c (big_and cs)
  end.

Definition nonzero_all (l : list aexpr) : bexpr :=
  big_and (map (fun r => Bne r (Cst 0)) l).

Definition aD (a : aexpr) : bexpr := nonzero_all (adivs a).
Definition bD (b : bexpr) : bexpr := nonzero_all (bdivs b).

Definition has_div (l : list aexpr) : bool :=
  match l with
  | [] => false
  | _ => true
  end.

(** ** Stores *)

(** Concrete stores and valuations of symbols: total functions. *)
Definition store := var -> Z.

Definition update (s : store) (x : var) (v : Z) : store :=
  fun y => if String.eqb x y then v else s y.

(** Symbolic stores: variables to arithmetic expressions over symbols. *)
Definition sstore := var -> aexpr.

(** WiSE's identity store: every variable is its own symbol. *)
Definition sid : sstore := fun x => Var x.

Definition supdate (S : sstore) (x : var) (e : aexpr) : sstore :=
  fun y => if String.eqb x y then e else S y.

(** Substitution of a symbolic store into an expression: [S(e)]. *)
Fixpoint asubst (S : sstore) (a : aexpr) : aexpr :=
  match a with
  | Cst n => Cst n
  | Var x => S x
  | Neg a1 => Neg (asubst S a1)
  | Add a1 a2 => Add (asubst S a1) (asubst S a2)
  | Sub a1 a2 => Sub (asubst S a1) (asubst S a2)
  | Mul a1 a2 => Mul (asubst S a1) (asubst S a2)
  | Div a1 a2 => Div (asubst S a1) (asubst S a2)
  | Mod a1 a2 => Mod (asubst S a1) (asubst S a2)
  end.

Fixpoint bsubst (S : sstore) (b : bexpr) : bexpr :=
  match b with
  | Btrue => Btrue
  | Bfalse => Bfalse
  | Beq a1 a2 => Beq (asubst S a1) (asubst S a2)
  | Bne a1 a2 => Bne (asubst S a1) (asubst S a2)
  | Blt a1 a2 => Blt (asubst S a1) (asubst S a2)
  | Ble a1 a2 => Ble (asubst S a1) (asubst S a2)
  | Bgt a1 a2 => Bgt (asubst S a1) (asubst S a2)
  | Bge a1 a2 => Bge (asubst S a1) (asubst S a2)
  | Bnot b1 => Bnot (bsubst S b1)
  | Band b1 b2 => Band (bsubst S b1) (bsubst S b2)
  | Bor b1 b2 => Bor (bsubst S b1) (bsubst S b2)
  end.

(** ** Variables of a program (used by the reference driver to print stores). *)

Fixpoint avars (a : aexpr) : list var :=
  match a with
  | Cst _ => []
  | Var x => [x]
  | Neg a1 => avars a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 | Div a1 a2 | Mod a1 a2 => avars a1 ++ avars a2
  end.

Fixpoint bvars (b : bexpr) : list var :=
  match b with
  | Btrue | Bfalse => []
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 =>
      avars a1 ++ avars a2
  | Bnot b1 => bvars b1
  | Band b1 b2 | Bor b1 b2 => bvars b1 ++ bvars b2
  end.

Fixpoint svars (p : stmt) : list var :=
  match p with
  | Skip | Fail => []
  | Assign x a => x :: avars a
  | Seq p1 p2 => svars p1 ++ svars p2
  | If b p1 p2 => bvars b ++ svars p1 ++ svars p2
  | While b p1 => bvars b ++ svars p1
  | Assume b => bvars b
  end.

(** ** Decidable equality *)

Definition aexpr_eq_dec : forall a1 a2 : aexpr, {a1 = a2} + {a1 <> a2}.
Proof. decide equality; [apply Z.eq_dec|apply string_dec]. Defined.

Definition bexpr_eq_dec : forall b1 b2 : bexpr, {b1 = b2} + {b1 <> b2}.
Proof. decide equality; apply aexpr_eq_dec. Defined.

Definition stmt_eq_dec : forall p1 p2 : stmt, {p1 = p2} + {p1 <> p2}.
Proof. decide equality; try apply aexpr_eq_dec; try apply bexpr_eq_dec; apply string_dec. Defined.
