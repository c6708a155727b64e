(** * Concrete semantics of IMP (spec/SEMANTICS.md, "Evaluation and definedness",
    "Concrete small-step semantics").  Proofs are in [Concreteproof.v]. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax.
Import ListNotations.
Open Scope Z_scope.

(** ** Total evaluation, used for path conditions (formulas over symbols) and for the
    elements of array terms.  Division by zero gives [Z.quot x 0 = 0] and
    [Z.rem x 0 = x], and a read outside the bounds reads the (input) element there; this
    is harmless because every divisor and index that matters is guarded by a [D]
    conjunct. *)

(** The values of the variables bound by the enclosing quantifiers, innermost first; an
    unbound name is [0] (a bound variable outside its quantifier, which the parser rejects). *)
Definition env : Type := list (var * Z).

Fixpoint lookupZ (E : env) (k : var) : Z :=
  match E with
  | [] => 0
  | (y, v) :: E' => if String.eqb y k then v else lookupZ E' k
  end.

(** The integers [lo, lo + 1, ..., hi] (none when [hi < lo]). *)
Definition zrange (lo hi : Z) : list Z :=
  map (fun n => lo + Z.of_nat n) (seq 0 (Z.to_nat (hi - lo + 1))).

(** [(d_0, f_0) :: (d_1, f_1) :: ...]: some [f_j] holds and every [d_i] before it. *)
Fixpoint first_ok (l : list (bool * bool)) : bool :=
  match l with
  | [] => false
  | (d, f) :: l' => f || (d && first_ok l')
  end.

Fixpoint aevalTE (E : env) (V : store) (a : aexpr) : Z :=
  match a with
  | Cst n => n
  | Var x => sv V x
  | Neg a1 => - aevalTE E V a1
  | Add a1 a2 => aevalTE E V a1 + aevalTE E V a2
  | Sub a1 a2 => aevalTE E V a1 - aevalTE E V a2
  | Mul a1 a2 => aevalTE E V a1 * aevalTE E V a2
  | Div a1 a2 => Z.quot (aevalTE E V a1) (aevalTE E V a2)
  | Mod a1 a2 => Z.rem (aevalTE E V a1) (aevalTE E V a2)
  | Sel t _ _ i => agetTE E V t (aevalTE E V i)
  | BVar k => lookupZ E k
  end
with agetTE (E : env) (V : store) (t : arr) (j : Z) : Z :=
  match t with
  | AVar a => sa V a j
  | AStore t1 i v => if Z.eqb j (aevalTE E V i) then aevalTE E V v else agetTE E V t1 j
  end.

Definition aevalT (V : store) (a : aexpr) : Z := aevalTE [] V a.
Definition agetT (V : store) (t : arr) (j : Z) : Z := agetTE [] V t j.

Fixpoint bevalTE (E : env) (V : store) (b : bexpr) : bool :=
  match b with
  | Btrue => true
  | Bfalse => false
  | Beq a1 a2 => Z.eqb (aevalTE E V a1) (aevalTE E V a2)
  | Bne a1 a2 => negb (Z.eqb (aevalTE E V a1) (aevalTE E V a2))
  | Blt a1 a2 => Z.ltb (aevalTE E V a1) (aevalTE E V a2)
  | Ble a1 a2 => Z.leb (aevalTE E V a1) (aevalTE E V a2)
  | Bgt a1 a2 => Z.ltb (aevalTE E V a2) (aevalTE E V a1)
  | Bge a1 a2 => Z.leb (aevalTE E V a2) (aevalTE E V a1)
  | Bnot b1 => negb (bevalTE E V b1)
  | Band b1 b2 => bevalTE E V b1 && bevalTE E V b2
  | Bor b1 b2 => bevalTE E V b1 || bevalTE E V b2
  | Bquant ex k a1 a2 b1 =>
      let l := zrange (aevalTE E V a1) (aevalTE E V a2) in
      if ex then existsb (fun j => bevalTE ((k, j) :: E) V b1) l
      else forallb (fun j => bevalTE ((k, j) :: E) V b1) l
  | Bfirst k a1 a2 d f =>
      first_ok (map (fun j => (bevalTE ((k, j) :: E) V d, bevalTE ((k, j) :: E) V f))
                    (zrange (aevalTE E V a1) (aevalTE E V a2)))
  end.

Definition bevalT (V : store) (b : bexpr) : bool := bevalTE [] V b.

(** ** Partial, strict evaluation with typed errors (Go: [spec.Eval], [spec.EvalB]).
    The result is a value or the kind of the FIRST error in evaluation order
    (spec/SEMANTICS.md): operands left to right, then the operation's own check; a
    quantifier's bounds, then its instances in increasing order. *)

Inductive res (A : Type) : Type :=
  | Ok (v : A)
  | Er (k : fkind).
Arguments Ok {A} v.
Arguments Er {A} k.

Definition bind {A B : Type} (r : res A) (f : A -> res B) : res B :=
  match r with
  | Ok v => f v
  | Er k => Er k
  end.

Definition lift2 {A B : Type} (f : A -> A -> B) (r1 r2 : res A) : res B :=
  bind r1 (fun v1 => bind r2 (fun v2 => Ok (f v1 v2))).

Definition div_res (f : Z -> Z -> Z) (r1 r2 : res Z) : res Z :=
  bind r1 (fun v1 => bind r2 (fun v2 => if Z.eqb v2 0 then Er KDiv else Ok (f v1 v2))).

Definition in_range (lo hi v : Z) : bool := Z.leb lo v && Z.leb v hi.

(** The instances of a quantifier: the first error, else every value. *)
Fixpoint qall_res (rs : list (res bool)) : res (list bool) :=
  match rs with
  | [] => Ok []
  | Ok v :: rs' => bind (qall_res rs') (fun vs => Ok (v :: vs))
  | Er k :: _ => Er k
  end.

Definition qcombine (ex : bool) (rs : list (res bool)) : res bool :=
  bind (qall_res rs) (fun vs => Ok (if ex then existsb (fun v => v) vs else forallb (fun v => v) vs)).

Fixpoint aevalE (E : env) (s : store) (a : aexpr) : res Z :=
  match a with
  | Cst n => Ok n
  | Var x => Ok (sv s x)
  | Neg a1 => bind (aevalE E s a1) (fun v => Ok (- v))
  | Add a1 a2 => lift2 Z.add (aevalE E s a1) (aevalE E s a2)
  | Sub a1 a2 => lift2 Z.sub (aevalE E s a1) (aevalE E s a2)
  | Mul a1 a2 => lift2 Z.mul (aevalE E s a1) (aevalE E s a2)
  | Div a1 a2 => div_res Z.quot (aevalE E s a1) (aevalE E s a2)
  | Mod a1 a2 => div_res Z.rem (aevalE E s a1) (aevalE E s a2)
  | Sel t lo hi i =>
      match arerrE E s t with
      | Some k => Er k
      | None => bind (aevalE E s i) (fun v => if in_range lo hi v then Ok (agetTE E s t v) else Er KIdx)
      end
  | BVar k => Ok (lookupZ E k)
  end
(** The first error of the parts of an array term (none for a program's array). *)
with arerrE (E : env) (s : store) (t : arr) : option fkind :=
  match t with
  | AVar _ => None
  | AStore t1 i v =>
      match arerrE E s t1 with
      | Some k => Some k
      | None =>
          match aevalE E s i with
          | Er k => Some k
          | Ok _ => match aevalE E s v with Er k => Some k | Ok _ => None end
          end
      end
  end.

Definition aeval (s : store) (a : aexpr) : res Z := aevalE [] s a.
Definition arerr (s : store) (t : arr) : option fkind := arerrE [] s t.

Fixpoint bevalE (E : env) (s : store) (b : bexpr) : res bool :=
  match b with
  | Btrue => Ok true
  | Bfalse => Ok false
  | Beq a1 a2 => lift2 Z.eqb (aevalE E s a1) (aevalE E s a2)
  | Bne a1 a2 => lift2 (fun v1 v2 => negb (Z.eqb v1 v2)) (aevalE E s a1) (aevalE E s a2)
  | Blt a1 a2 => lift2 Z.ltb (aevalE E s a1) (aevalE E s a2)
  | Ble a1 a2 => lift2 Z.leb (aevalE E s a1) (aevalE E s a2)
  | Bgt a1 a2 => lift2 (fun v1 v2 => Z.ltb v2 v1) (aevalE E s a1) (aevalE E s a2)
  | Bge a1 a2 => lift2 (fun v1 v2 => Z.leb v2 v1) (aevalE E s a1) (aevalE E s a2)
  | Bnot b1 => bind (bevalE E s b1) (fun v => Ok (negb v))
  | Band b1 b2 => lift2 andb (bevalE E s b1) (bevalE E s b2)
  | Bor b1 b2 => lift2 orb (bevalE E s b1) (bevalE E s b2)
  | Bquant ex k a1 a2 b1 =>
      bind (aevalE E s a1) (fun v1 => bind (aevalE E s a2) (fun v2 =>
        qcombine ex (map (fun j => bevalE ((k, j) :: E) s b1) (zrange v1 v2))))
  | Bfirst k a1 a2 d f =>
      bind (aevalE E s a1) (fun v1 => bind (aevalE E s a2) (fun v2 =>
        Ok (first_ok (map (fun j => (bevalTE ((k, j) :: E) s d, bevalTE ((k, j) :: E) s f))
                          (zrange v1 v2)))))
  end.

Definition beval (s : store) (b : bexpr) : res bool := bevalE [] s b.

(** The write [a[i] = e] ([S-ArrAssign]): [i], then [e], then the range check. *)
Definition weval (s : store) (lo hi : Z) (i e : aexpr) : res (Z * Z) :=
  bind (aeval s i) (fun vi => bind (aeval s e) (fun v =>
    if in_range lo hi vi then Ok (vi, v) else Er KIdx)).

(** [V ⊨ φ] *)
Definition sat (V : store) (phi : bexpr) : Prop := bevalT V phi = true.

(** ** Small-step relation [(s, p) → (s', p')] *)

Definition cstate : Type := (store * stmt)%type.

Inductive step : cstate -> cstate -> Prop :=
  | S_Assign : forall s x a v,
      aeval s a = Ok v -> step (s, Assign x a) (update s x v, Skip)
  | S_AssignErr : forall s x a k,
      aeval s a = Er k -> step (s, Assign x a) (s, Fail k)
  | S_ArrAssign : forall s a lo hi i e j v,
      weval s lo hi i e = Ok (j, v) -> step (s, AAssign a lo hi i e) (aupdate s a j v, Skip)
  | S_ArrAssignErr : forall s a lo hi i e k,
      weval s lo hi i e = Er k -> step (s, AAssign a lo hi i e) (s, Fail k)
  | S_IfTrue : forall s b p q,
      beval s b = Ok true -> step (s, If b p q) (s, p)
  | S_IfFalse : forall s b p q,
      beval s b = Ok false -> step (s, If b p q) (s, q)
  | S_IfErr : forall s b p q k,
      beval s b = Er k -> step (s, If b p q) (s, Fail k)
  | S_While : forall s b p,
      step (s, While b p) (s, If b (Seq p (While b p)) Skip)
  | S_Assume : forall s b,
      beval s b = Ok true -> step (s, Assume b) (s, Skip)
  | S_AssumeErr : forall s b k,
      beval s b = Er k -> step (s, Assume b) (s, Fail k)
  | S_SeqSkip : forall s q,
      step (s, Seq Skip q) (s, q)
  | S_Seq : forall s p q s' p',
      step (s, p) (s', p') -> step (s, Seq p q) (s', Seq p' q).

(** Reflexive-transitive closure (first step first). *)
Inductive star {A : Type} (R : A -> A -> Prop) : A -> A -> Prop :=
  | star_refl : forall a, star R a a
  | star_step : forall a b c, R a b -> star R b c -> star R a c.

Definition steps := star step.

(** ** Executable step (Go: [spec.Step]) *)

Inductive result : Type :=
  | Next (s : store) (p : stmt)  (** one step to [(s, p)] *)
  | Final                        (** [skip]: the run is finished *)
  | Error                        (** head [fail]: a bug *)
  | Stuck.                       (** head [assume b] with [b] false: infeasible path *)

Fixpoint cstep (s : store) (p : stmt) : result :=
  match p with
  | Skip => Final
  | Fail _ => Error
  | Assign x a =>
      match aeval s a with
      | Ok v => Next (update s x v) Skip
      | Er k => Next s (Fail k)
      end
  | AAssign a lo hi i e =>
      match weval s lo hi i e with
      | Ok (j, v) => Next (aupdate s a j v) Skip
      | Er k => Next s (Fail k)
      end
  | If b p1 p2 =>
      match beval s b with
      | Ok true => Next s p1
      | Ok false => Next s p2
      | Er k => Next s (Fail k)
      end
  | While b p1 => Next s (If b (Seq p1 (While b p1)) Skip)
  | Assume b =>
      match beval s b with
      | Ok true => Next s Skip
      | Ok false => Stuck
      | Er k => Next s (Fail k)
      end
  | Seq p1 q =>
      match p1 with
      | Skip => Next s q
      | _ =>
          match cstep s p1 with
          | Next s' p' => Next s' (Seq p' q)
          | r => r
          end
      end
  end.

(** Pointwise equality of stores (we never need functional extensionality). *)
Definition store_eq (s1 s2 : store) : Prop :=
  (forall x, sv s1 x = sv s2 x) /\ (forall a j, sa s1 a j = sa s2 a j).
