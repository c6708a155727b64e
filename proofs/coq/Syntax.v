(** * Syntax of core IMP (spec/SEMANTICS.md, "Core syntax").

    Arithmetic expressions over mathematical integers, boolean expressions and
    statements.  There is no [assert], no invariant clause of a loop and there are no
    macros: the parser and the refinement layer desugar them before anything reaches this
    development (a loop with clauses to
    [skip; assert I1; ...; assert In; while b do (p; assert I1; ...; assert In) od]). *)

From Coq Require Import ZArith String List Bool.
Import ListNotations.

Definition var := string.

(** Kinds of errors (Go: [spec.FailKind]): an explicit [fail] (the source's [fail]
    statements and the desugared [assert]s and invariant clauses), a division by zero, an index
    out of range. *)
Inductive fkind : Type := KFail | KDiv | KIdx.

Definition fkind_eqb (k1 k2 : fkind) : bool :=
  match k1, k2 with
  | KFail, KFail | KDiv, KDiv | KIdx, KIdx => true
  | _, _ => false
  end.

(** Arithmetic expressions and array terms.  A program reads element [i] of
    the declared array [a] with [Sel (AVar a) lo hi i], the declaration's bounds [lo..hi]
    written on the node (the reference's driver fills them in from the program's
    declarations).  Symbolic execution substitutes array terms for array names: an array
    term is a chain of stores [store(... store(a0, i1, v1) ..., in, vn)] over the initial
    array [a0] ([AVar a]), whose elements are the input symbols of [a]. *)
Inductive aexpr : Type :=
  | Cst (n : Z)
  | Var (x : var)
  | Neg (a : aexpr)
  | Add (a1 a2 : aexpr)
  | Sub (a1 a2 : aexpr)
  | Mul (a1 a2 : aexpr)
  | Div (a1 a2 : aexpr)   (** truncating division, [Z.quot] *)
  | Mod (a1 a2 : aexpr)   (** remainder of the truncating division, [Z.rem] *)
  | Sel (t : arr) (lo hi : Z) (i : aexpr)  (** [t[i]], [i] checked against [lo..hi] *)
  | BVar (k : var)  (** the variable bound by an enclosing quantifier *)
with arr : Type :=
  | AVar (a : var)                   (** the array [a] (initially: its input elements) *)
  | AStore (t : arr) (i v : aexpr).  (** [t] with element [i] set to [v] *)

Scheme aexpr_mut := Induction for aexpr Sort Prop
  with arr_mut := Induction for arr Sort Prop.
Combined Scheme aexpr_arr_mut from aexpr_mut, arr_mut.

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
  | Bor (b1 b2 : bexpr)
  (** [forall k in a1..a2: b] ([ex = false]) and [exists k in a1..a2: b] ([ex = true]) *)
  | Bquant (ex : bool) (k : var) (a1 a2 : aexpr) (b : bexpr)
  (** The first-failure connective of the [F_k] formulas (not in programs): some [j] in
      [a1..a2] satisfies [f] (with [k = j]) while every [i] in [a1..j-1] satisfies [d]
      (with [k = i]); its instances are read with the total evaluation. *)
  | Bfirst (k : var) (a1 a2 : aexpr) (d f : bexpr).

Inductive stmt : Type :=
  | Skip
  | Fail (k : fkind)
  | Assign (x : var) (a : aexpr)
  | AAssign (a : var) (lo hi : Z) (i e : aexpr)  (** [a[i] = e], [a] declared [lo..hi] *)
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
  | Fail _ => true
  | _ => false
  end.

(** The kind of an error state. *)
Definition error_kind (p : stmt) : option fkind :=
  match head p with
  | Fail k => Some k
  | _ => None
  end.

(** ** Definedness [D] and first-failure formulas [F_k] (design file)

    [band]/[bor] are conjunction/disjunction simplified by the constants [true] and [false]
    (the formulas are read with the total evaluation, so dropping an operand is exact). *)

Definition band (b1 b2 : bexpr) : bexpr :=
  match b1, b2 with
  | Btrue, _ => b2
  | _, Btrue => b1
  | Bfalse, _ | _, Bfalse => Bfalse
  | _, _ => Band b1 b2
  end.

Definition bor (b1 b2 : bexpr) : bexpr :=
  match b1, b2 with
  | Bfalse, _ => b2
  | _, Bfalse => b1
  | Btrue, _ | _, Btrue => Btrue
  | _, _ => Bor b1 b2
  end.

(** [lo <= i <= hi] *)
Definition inr (lo hi : Z) (i : aexpr) : bexpr := Band (Ble (Cst lo) i) (Ble i (Cst hi)).

(** The operation's own check, when its kind is [k]. *)
Definition check_if (k k' : fkind) (c : bexpr) : bexpr := if fkind_eqb k k' then c else Bfalse.

(** [D(e)]: the conjunction of the parts' [D] and the operation's check, in evaluation order.
    An array term's [D] is that of its stores' indices and values (their range was checked
    when the store was made). *)
Fixpoint aD (a : aexpr) : bexpr :=
  match a with
  | Cst _ | Var _ | BVar _ => Btrue
  | Neg a1 => aD a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 => band (aD a1) (aD a2)
  | Div a1 a2 | Mod a1 a2 => band (band (aD a1) (aD a2)) (Bne a2 (Cst 0))
  | Sel t lo hi i => band (band (arD t) (aD i)) (inr lo hi i)
  end
with arD (t : arr) : bexpr :=
  match t with
  | AVar _ => Btrue
  | AStore t1 i v => band (band (arD t1) (aD i)) (aD v)
  end.

(** [F_k(e)]: the first failure of [e]'s evaluation has kind [k]. *)
Fixpoint aF (k : fkind) (a : aexpr) : bexpr :=
  match a with
  | Cst _ | Var _ | BVar _ => Bfalse
  | Neg a1 => aF k a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 => bor (aF k a1) (band (aD a1) (aF k a2))
  | Div a1 a2 | Mod a1 a2 =>
      bor (bor (aF k a1) (band (aD a1) (aF k a2)))
          (check_if k KDiv (band (band (aD a1) (aD a2)) (Beq a2 (Cst 0))))
  | Sel t lo hi i =>
      bor (bor (arF k t) (band (arD t) (aF k i)))
          (check_if k KIdx (band (band (arD t) (aD i)) (Bnot (inr lo hi i))))
  end
with arF (k : fkind) (t : arr) : bexpr :=
  match t with
  | AVar _ => Bfalse
  | AStore t1 i v => bor (bor (arF k t1) (band (arD t1) (aF k i))) (band (band (arD t1) (aD i)) (aF k v))
  end.

Definition cmpD (a1 a2 : aexpr) : bexpr := band (aD a1) (aD a2).
Definition cmpF (k : fkind) (a1 a2 : aexpr) : bexpr := bor (aF k a1) (band (aD a1) (aF k a2)).

(** [forall k in a1..a2: d], [true] when [d] is. *)
Definition qall (k : var) (a1 a2 : aexpr) (d : bexpr) : bexpr :=
  match d with
  | Btrue => Btrue
  | _ => Bquant false k a1 a2 d
  end.

(** [first k in a1..a2: d, f], [false] when [f] is. *)
Definition qfirst (k : var) (a1 a2 : aexpr) (d f : bexpr) : bexpr :=
  match f with
  | Bfalse => Bfalse
  | _ => Bfirst k a1 a2 d f
  end.

(** For a quantifier over [a1..a2] with body [b] (design file):
    [D = D(a1) ∧ D(a2) ∧ ∀ j ∈ a1..a2: D(b[j])] and
    [F_k = F_k(a1) ∨ (D(a1) ∧ F_k(a2)) ∨ (D(a1) ∧ D(a2) ∧ ∃ j ∈ a1..a2: (∀ i ∈ a1..j-1: D(b[i])) ∧ F_k(b[j]))],
    the last disjunct being [Bfirst]. *)
Fixpoint bD (b : bexpr) : bexpr :=
  match b with
  | Btrue | Bfalse => Btrue
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 => cmpD a1 a2
  | Bnot b1 => bD b1
  | Band b1 b2 | Bor b1 b2 => band (bD b1) (bD b2)
  | Bquant _ k a1 a2 b1 => band (cmpD a1 a2) (qall k a1 a2 (bD b1))
  | Bfirst _ a1 a2 _ _ => cmpD a1 a2
  end.

Fixpoint bF (k : fkind) (b : bexpr) : bexpr :=
  match b with
  | Btrue | Bfalse => Bfalse
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 => cmpF k a1 a2
  | Bnot b1 => bF k b1
  | Band b1 b2 | Bor b1 b2 => bor (bF k b1) (band (bD b1) (bF k b2))
  | Bquant _ x a1 a2 b1 => bor (cmpF k a1 a2) (band (cmpD a1 a2) (qfirst x a1 a2 (bD b1) (bF k b1)))
  | Bfirst _ a1 a2 _ _ => cmpF k a1 a2
  end.

(** The write [a[i] = e]: [i], then [e], then the range check. *)
Definition wD (lo hi : Z) (i e : aexpr) : bexpr := band (band (aD i) (aD e)) (inr lo hi i).
Definition wF (k : fkind) (lo hi : Z) (i e : aexpr) : bexpr :=
  bor (bor (aF k i) (band (aD i) (aF k e)))
      (check_if k KIdx (band (band (aD i) (aD e)) (Bnot (inr lo hi i)))).

(** Can the evaluation fail with kind [k]?  Syntactic (Go: the statement's [Err] /
    [IdxErr] is not nil): a division for [KDiv], an element read for [KIdx]. *)
Fixpoint acan (k : fkind) (a : aexpr) : bool :=
  match a with
  | Cst _ | Var _ | BVar _ => false
  | Neg a1 => acan k a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 => acan k a1 || acan k a2
  | Div a1 a2 | Mod a1 a2 => acan k a1 || acan k a2 || fkind_eqb k KDiv
  | Sel t _ _ i => arcan k t || acan k i || fkind_eqb k KIdx
  end
with arcan (k : fkind) (t : arr) : bool :=
  match t with
  | AVar _ => false
  | AStore t1 i v => arcan k t1 || acan k i || acan k v
  end.

Fixpoint bcan (k : fkind) (b : bexpr) : bool :=
  match b with
  | Btrue | Bfalse => false
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 => acan k a1 || acan k a2
  | Bnot b1 => bcan k b1
  | Band b1 b2 | Bor b1 b2 => bcan k b1 || bcan k b2
  | Bquant _ _ a1 a2 b1 => acan k a1 || acan k a2 || bcan k b1
  | Bfirst _ a1 a2 _ _ => acan k a1 || acan k a2
  end.

Definition wcan (k : fkind) (i e : aexpr) : bool := acan k i || acan k e || fkind_eqb k KIdx.

(** ** Stores *)

(** Concrete stores and valuations of symbols: total functions, one for the scalar
    variables and one for the elements of the arrays. *)
Record store : Type := Store { sv : var -> Z; sa : var -> Z -> Z }.

Definition update (s : store) (x : var) (v : Z) : store :=
  Store (fun y => if String.eqb x y then v else sv s y) (sa s).

Definition aupdate (s : store) (a : var) (j v : Z) : store :=
  Store (sv s) (fun b i => if String.eqb a b && Z.eqb j i then v else sa s b i).

(** Symbolic stores: scalar variables to arithmetic expressions over symbols, arrays to
    array terms. *)
Record sstore : Type := SStore { ssv : var -> aexpr; ssa : var -> arr }.

(** WiSE's identity store: every variable and every array is its own symbol. *)
Definition sid : sstore := SStore (fun x => Var x) (fun a => AVar a).

Definition supdate (S : sstore) (x : var) (e : aexpr) : sstore :=
  SStore (fun y => if String.eqb x y then e else ssv S y) (ssa S).

Definition saupdate (S : sstore) (a : var) (t : arr) : sstore :=
  SStore (ssv S) (fun b => if String.eqb a b then t else ssa S b).

(** A term with every bound variable replaced by [0], its value outside any quantifier: a
    term of a symbolic store is put under a quantifier closed, so that a binder never
    captures a variable of the store (in a parsed program no assignment mentions a bound
    variable, and [aclose] is the identity on the stores it builds). *)
Fixpoint aclose (a : aexpr) : aexpr :=
  match a with
  | Cst n => Cst n
  | Var x => Var x
  | Neg a1 => Neg (aclose a1)
  | Add a1 a2 => Add (aclose a1) (aclose a2)
  | Sub a1 a2 => Sub (aclose a1) (aclose a2)
  | Mul a1 a2 => Mul (aclose a1) (aclose a2)
  | Div a1 a2 => Div (aclose a1) (aclose a2)
  | Mod a1 a2 => Mod (aclose a1) (aclose a2)
  | Sel t lo hi i => Sel (arclose t) lo hi (aclose i)
  | BVar _ => Cst 0
  end
with arclose (t : arr) : arr :=
  match t with
  | AVar a => AVar a
  | AStore t1 i v => AStore (arclose t1) (aclose i) (aclose v)
  end.

(** Substitution of a symbolic store into an expression: [S(e)]. *)
Fixpoint asubst (S : sstore) (a : aexpr) : aexpr :=
  match a with
  | Cst n => Cst n
  | Var x => aclose (ssv S x)
  | BVar k => BVar k
  | Neg a1 => Neg (asubst S a1)
  | Add a1 a2 => Add (asubst S a1) (asubst S a2)
  | Sub a1 a2 => Sub (asubst S a1) (asubst S a2)
  | Mul a1 a2 => Mul (asubst S a1) (asubst S a2)
  | Div a1 a2 => Div (asubst S a1) (asubst S a2)
  | Mod a1 a2 => Mod (asubst S a1) (asubst S a2)
  | Sel t lo hi i => Sel (arsubst S t) lo hi (asubst S i)
  end
with arsubst (S : sstore) (t : arr) : arr :=
  match t with
  | AVar a => arclose (ssa S a)
  | AStore t1 i v => AStore (arsubst S t1) (asubst S i) (asubst S v)
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
  | Bquant ex k a1 a2 b1 => Bquant ex k (asubst S a1) (asubst S a2) (bsubst S b1)
  | Bfirst k a1 a2 d f => Bfirst k (asubst S a1) (asubst S a2) (bsubst S d) (bsubst S f)
  end.

(** ** Variables of a program (used by the reference driver to print stores). *)

Fixpoint avars (a : aexpr) : list var :=
  match a with
  | Cst _ | BVar _ => []
  | Var x => [x]
  | Neg a1 => avars a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 | Div a1 a2 | Mod a1 a2 => avars a1 ++ avars a2
  | Sel t _ _ i => arvars t ++ avars i
  end
with arvars (t : arr) : list var :=
  match t with
  | AVar _ => []
  | AStore t1 i v => arvars t1 ++ avars i ++ avars v
  end.

Fixpoint bvars (b : bexpr) : list var :=
  match b with
  | Btrue | Bfalse => []
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 =>
      avars a1 ++ avars a2
  | Bnot b1 => bvars b1
  | Band b1 b2 | Bor b1 b2 => bvars b1 ++ bvars b2
  | Bquant _ _ a1 a2 b1 => avars a1 ++ avars a2 ++ bvars b1
  | Bfirst _ a1 a2 d f => avars a1 ++ avars a2 ++ bvars d ++ bvars f
  end.

Fixpoint svars (p : stmt) : list var :=
  match p with
  | Skip | Fail _ => []
  | Assign x a => x :: avars a
  | AAssign _ _ _ i e => avars i ++ avars e
  | Seq p1 p2 => svars p1 ++ svars p2
  | If b p1 p2 => bvars b ++ svars p1 ++ svars p2
  | While b p1 => bvars b ++ svars p1
  | Assume b => bvars b
  end.

(** The arrays a program writes, with the bounds written on the writes. *)
Fixpoint swrites (p : stmt) : list (var * Z * Z) :=
  match p with
  | AAssign a lo hi _ _ => [(a, lo, hi)]
  | Seq p1 p2 | If _ p1 p2 => swrites p1 ++ swrites p2
  | While _ p1 => swrites p1
  | _ => []
  end.

(** ** Decidable equality *)

Definition fkind_eq_dec : forall k1 k2 : fkind, {k1 = k2} + {k1 <> k2}.
Proof. decide equality. Defined.

Fixpoint aexpr_eq_dec (a1 a2 : aexpr) {struct a1} : {a1 = a2} + {a1 <> a2}
with arr_eq_dec (t1 t2 : arr) {struct t1} : {t1 = t2} + {t1 <> t2}.
Proof.
  - decide equality; try apply Z.eq_dec; try apply string_dec.
  - decide equality; try apply string_dec.
Defined.

Definition bexpr_eq_dec : forall b1 b2 : bexpr, {b1 = b2} + {b1 <> b2}.
Proof. decide equality; try apply aexpr_eq_dec; try apply string_dec; apply bool_dec. Defined.

Definition stmt_eq_dec : forall p1 p2 : stmt, {p1 = p2} + {p1 <> p2}.
Proof.
  decide equality; try apply aexpr_eq_dec; try apply bexpr_eq_dec; try apply string_dec;
    try apply Z.eq_dec; apply fkind_eq_dec.
Defined.
