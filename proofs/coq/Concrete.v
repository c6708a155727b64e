(** * Concrete semantics of IMP (spec/SEMANTICS.md, "Evaluation and definedness",
    "Concrete small-step semantics").  Proofs are in [Concreteproof.v]. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax.
Import ListNotations.
Open Scope Z_scope.

(** ** Partial, strict evaluation (Go: [spec.Eval], [spec.EvalB]).
    [None] exactly when some divisor evaluates to 0. *)

Definition div_opt (f : Z -> Z -> Z) (o1 o2 : option Z) : option Z :=
  match o1, o2 with
  | Some v1, Some v2 => if Z.eqb v2 0 then None else Some (f v1 v2)
  | _, _ => None
  end.

Definition lift2 {A B} (f : A -> A -> B) (o1 o2 : option A) : option B :=
  match o1, o2 with
  | Some v1, Some v2 => Some (f v1 v2)
  | _, _ => None
  end.

Fixpoint aeval (s : store) (a : aexpr) : option Z :=
  match a with
  | Cst n => Some n
  | Var x => Some (s x)
  | Neg a1 => option_map Z.opp (aeval s a1)
  | Add a1 a2 => lift2 Z.add (aeval s a1) (aeval s a2)
  | Sub a1 a2 => lift2 Z.sub (aeval s a1) (aeval s a2)
  | Mul a1 a2 => lift2 Z.mul (aeval s a1) (aeval s a2)
  | Div a1 a2 => div_opt Z.quot (aeval s a1) (aeval s a2)
  | Mod a1 a2 => div_opt Z.rem (aeval s a1) (aeval s a2)
  end.

Fixpoint beval (s : store) (b : bexpr) : option bool :=
  match b with
  | Btrue => Some true
  | Bfalse => Some false
  | Beq a1 a2 => lift2 Z.eqb (aeval s a1) (aeval s a2)
  | Bne a1 a2 => lift2 (fun v1 v2 => negb (Z.eqb v1 v2)) (aeval s a1) (aeval s a2)
  | Blt a1 a2 => lift2 Z.ltb (aeval s a1) (aeval s a2)
  | Ble a1 a2 => lift2 Z.leb (aeval s a1) (aeval s a2)
  | Bgt a1 a2 => lift2 (fun v1 v2 => Z.ltb v2 v1) (aeval s a1) (aeval s a2)
  | Bge a1 a2 => lift2 (fun v1 v2 => Z.leb v2 v1) (aeval s a1) (aeval s a2)
  | Bnot b1 => option_map negb (beval s b1)
  | Band b1 b2 => lift2 andb (beval s b1) (beval s b2)
  | Bor b1 b2 => lift2 orb (beval s b1) (beval s b2)
  end.

(** ** Total evaluation, used only for path conditions (formulas over symbols).
    Division by zero gives [Z.quot x 0 = 0] and [Z.rem x 0 = x]; this is
    harmless because every divisor that matters is guarded by a [D] conjunct. *)

Fixpoint aevalT (V : store) (a : aexpr) : Z :=
  match a with
  | Cst n => n
  | Var x => V x
  | Neg a1 => - aevalT V a1
  | Add a1 a2 => aevalT V a1 + aevalT V a2
  | Sub a1 a2 => aevalT V a1 - aevalT V a2
  | Mul a1 a2 => aevalT V a1 * aevalT V a2
  | Div a1 a2 => Z.quot (aevalT V a1) (aevalT V a2)
  | Mod a1 a2 => Z.rem (aevalT V a1) (aevalT V a2)
  end.

Fixpoint bevalT (V : store) (b : bexpr) : bool :=
  match b with
  | Btrue => true
  | Bfalse => false
  | Beq a1 a2 => Z.eqb (aevalT V a1) (aevalT V a2)
  | Bne a1 a2 => negb (Z.eqb (aevalT V a1) (aevalT V a2))
  | Blt a1 a2 => Z.ltb (aevalT V a1) (aevalT V a2)
  | Ble a1 a2 => Z.leb (aevalT V a1) (aevalT V a2)
  | Bgt a1 a2 => Z.ltb (aevalT V a2) (aevalT V a1)
  | Bge a1 a2 => Z.leb (aevalT V a2) (aevalT V a1)
  | Bnot b1 => negb (bevalT V b1)
  | Band b1 b2 => bevalT V b1 && bevalT V b2
  | Bor b1 b2 => bevalT V b1 || bevalT V b2
  end.

(** [V ⊨ φ] *)
Definition sat (V : store) (phi : bexpr) : Prop := bevalT V phi = true.

(** ** Small-step relation [(s, p) → (s', p')] *)

Definition cstate : Type := (store * stmt)%type.

Inductive step : cstate -> cstate -> Prop :=
  | S_Assign : forall s x a v,
      aeval s a = Some v -> step (s, Assign x a) (update s x v, Skip)
  | S_AssignErr : forall s x a,
      aeval s a = None -> step (s, Assign x a) (s, Fail)
  | S_IfTrue : forall s b p q,
      beval s b = Some true -> step (s, If b p q) (s, p)
  | S_IfFalse : forall s b p q,
      beval s b = Some false -> step (s, If b p q) (s, q)
  | S_IfErr : forall s b p q,
      beval s b = None -> step (s, If b p q) (s, Fail)
  | S_While : forall s b p,
      step (s, While b p) (s, If b (Seq p (While b p)) Skip)
  | S_Assume : forall s b,
      beval s b = Some true -> step (s, Assume b) (s, Skip)
  | S_AssumeErr : forall s b,
      beval s b = None -> step (s, Assume b) (s, Fail)
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
  | Fail => Error
  | Assign x a =>
      match aeval s a with
      | Some v => Next (update s x v) Skip
      | None => Next s Fail
      end
  | If b p1 p2 =>
      match beval s b with
      | Some true => Next s p1
      | Some false => Next s p2
      | None => Next s Fail
      end
  | While b p1 => Next s (If b (Seq p1 (While b p1)) Skip)
  | Assume b =>
      match beval s b with
      | Some true => Next s Skip
      | Some false => Stuck
      | None => Next s Fail
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
Definition store_eq (s1 s2 : store) : Prop := forall x, s1 x = s2 x.
