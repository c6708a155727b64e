(** * Properties of the concrete semantics: the executable step is the relation,
    the classifier, evaluation with typed errors and its formulas [D] and [F_k]. *)

From Coq Require Import ZArith String List Bool Lia.
From Certsym Require Import Syntax Concrete.
Import ListNotations.
Open Scope Z_scope.

(** ** Results *)

Definition okb {A : Type} (r : res A) : bool := match r with Ok _ => true | Er _ => false end.
Definition errb {A : Type} (k : fkind) (r : res A) : bool :=
  match r with Ok _ => false | Er k' => fkind_eqb k k' end.
Definition nob (o : option fkind) : bool := match o with None => true | Some _ => false end.
Definition someb (k : fkind) (o : option fkind) : bool :=
  match o with None => false | Some k' => fkind_eqb k k' end.

Lemma fkind_eqb_spec : forall k k', fkind_eqb k k' = true <-> k = k'.
Proof. intros [] []; simpl; split; intros H; congruence. Qed.

(** ** Lists of instances *)

Lemma forallb_ext' : forall A (f g : A -> bool) l, (forall x, f x = g x) -> forallb f l = forallb g l.
Proof. intros A f g l H. induction l; simpl; [reflexivity|]. rewrite H, IHl. reflexivity. Qed.

Lemma existsb_ext' : forall A (f g : A -> bool) l, (forall x, f x = g x) -> existsb f l = existsb g l.
Proof. intros A f g l H. induction l; simpl; [reflexivity|]. rewrite H, IHl. reflexivity. Qed.

Lemma qall_res_total : forall A (f : A -> res bool) (g : A -> bool) l vs,
  (forall x v, f x = Ok v -> g x = v) -> qall_res (map f l) = Ok vs -> vs = map g l.
Proof.
  intros A f g l. induction l as [|x l IH]; simpl; intros vs H E.
  - inversion E; reflexivity.
  - destruct (f x) eqn:Ef; [|discriminate]. unfold bind in E.
    destruct (qall_res (map f l)) eqn:E2; [|discriminate]. inversion E; subst.
    rewrite (H _ _ Ef), (IH _ H eq_refl). reflexivity.
Qed.

Lemma qcombine_total : forall A (f : A -> res bool) (g : A -> bool) ex l v,
  (forall x v, f x = Ok v -> g x = v) -> qcombine ex (map f l) = Ok v ->
  v = if ex then existsb g l else forallb g l.
Proof.
  intros A f g ex l v H E. unfold qcombine, bind in E.
  destruct (qall_res (map f l)) eqn:E2; [|discriminate]. inversion E; subst.
  rewrite (qall_res_total _ f g l v0 H E2).
  destruct ex; clear; induction l; simpl; rewrite ?IHl; reflexivity.
Qed.

Lemma qcombine_err : forall A (f : A -> res bool) ex l k,
  qcombine ex (map f l) = Er k -> exists x, In x l /\ f x = Er k.
Proof.
  intros A f ex l k E. unfold qcombine, bind in E.
  destruct (qall_res (map f l)) eqn:E2; [discriminate|]. inversion E; subst. clear E.
  induction l as [|x l IH]; simpl in E2; [discriminate|].
  destruct (f x) eqn:Ef.
  - unfold bind in E2. destruct (qall_res (map f l)); [discriminate|]. inversion E2; subst.
    destruct (IH eq_refl) as [y [Hy Hf]]. exists y. split; [right|]; assumption.
  - inversion E2; subst. exists x. split; [left; reflexivity|assumption].
Qed.

(** ** Evaluation: a defined value is the total value *)

Lemma aeval_total_mut : forall E s,
  (forall a v, aevalE E s a = Ok v -> aevalTE E s a = v) /\ (forall t : arr, True).
Proof.
  intros E s. apply aexpr_arr_mut; intros; simpl in *; auto.
  all: try (unfold lift2, div_res, bind in H1;
            destruct (aevalE E s a1) eqn:E1; try discriminate;
            destruct (aevalE E s a2) eqn:E2; try discriminate;
            try (destruct (v1 =? 0)); try discriminate;
            inversion H1; rewrite (H _ eq_refl), (H0 _ eq_refl); reflexivity).
  all: try (inversion H; reflexivity).
  - destruct (aevalE E s a) eqn:E0; simpl in H0; inversion H0. rewrite (H _ eq_refl). reflexivity.
  - destruct (arerrE E s t); [discriminate|].
    unfold bind in H1. destruct (aevalE E s i) eqn:E0; [|discriminate].
    destruct (in_range lo hi v0); inversion H1. rewrite (H0 _ eq_refl). reflexivity.
Qed.

Lemma aevalE_total : forall E s a v, aevalE E s a = Ok v -> aevalTE E s a = v.
Proof. intros E s. apply (proj1 (aeval_total_mut E s)). Qed.

Lemma aeval_total : forall s a v, aeval s a = Ok v -> aevalT s a = v.
Proof. intros s. apply (proj1 (aeval_total_mut [] s)). Qed.

Lemma bevalE_total : forall s b E v, bevalE E s b = Ok v -> bevalTE E s b = v.
Proof.
  intros s b; induction b; intros E v H; simpl in *;
    try (inversion H; reflexivity).
  all: try (unfold lift2, bind in H;
            destruct (aevalE E s a1) eqn:E1; try discriminate;
            destruct (aevalE E s a2) eqn:E2; try discriminate; inversion H; subst;
            rewrite (aevalE_total _ _ _ _ E1), (aevalE_total _ _ _ _ E2); reflexivity).
  - unfold bind in H. destruct (bevalE E s b) eqn:Eb; inversion H. rewrite (IHb _ _ Eb). reflexivity.
  - unfold lift2, bind in H. destruct (bevalE E s b1) eqn:E1; try discriminate;
      destruct (bevalE E s b2) eqn:E2; try discriminate; inversion H; subst.
    rewrite (IHb1 _ _ E1), (IHb2 _ _ E2). reflexivity.
  - unfold lift2, bind in H. destruct (bevalE E s b1) eqn:E1; try discriminate;
      destruct (bevalE E s b2) eqn:E2; try discriminate; inversion H; subst.
    rewrite (IHb1 _ _ E1), (IHb2 _ _ E2). reflexivity.
  - unfold bind in H. destruct (aevalE E s a1) eqn:E1; try discriminate;
      destruct (aevalE E s a2) eqn:E2; try discriminate.
    rewrite (aevalE_total _ _ _ _ E1), (aevalE_total _ _ _ _ E2).
    symmetry. apply (qcombine_total _ (fun j => bevalE ((k, j) :: E) s b) (fun j => bevalTE ((k, j) :: E) s b) ex _ _ (fun x v => IHb _ v) H).
Qed.

Lemma beval_total : forall s b v, beval s b = Ok v -> bevalT s b = v.
Proof. intros s b v. apply bevalE_total. Qed.

(** ** [D] and [F_k] *)

Lemma bevalT_band : forall E V b1 b2, bevalTE E V (band b1 b2) = bevalTE E V b1 && bevalTE E V b2.
Proof.
  intros E V b1 b2. destruct b1, b2; simpl; rewrite ?andb_true_r, ?andb_false_r; reflexivity.
Qed.

Lemma bevalT_bor : forall E V b1 b2, bevalTE E V (bor b1 b2) = bevalTE E V b1 || bevalTE E V b2.
Proof.
  intros E V b1 b2. destruct b1, b2; simpl; rewrite ?orb_false_r, ?orb_true_r; reflexivity.
Qed.

Lemma bevalT_check : forall E V k k' c, bevalTE E V (check_if k k' c) = fkind_eqb k k' && bevalTE E V c.
Proof. intros E V k k' c. unfold check_if. destruct (fkind_eqb k k'); reflexivity. Qed.

Lemma bevalT_inr : forall E V lo hi i, bevalTE E V (inr lo hi i) = in_range lo hi (aevalTE E V i).
Proof. reflexivity. Qed.

Lemma bevalT_qall : forall E V k a1 a2 d,
  bevalTE E V (qall k a1 a2 d) =
  forallb (fun j => bevalTE ((k, j) :: E) V d) (zrange (aevalTE E V a1) (aevalTE E V a2)).
Proof.
  intros E V k a1 a2 d. destruct d; try reflexivity.
  simpl. induction (zrange _ _); simpl; [reflexivity|]. rewrite <- IHl. reflexivity.
Qed.

Lemma bevalT_qfirst : forall E V k a1 a2 d f,
  bevalTE E V (qfirst k a1 a2 d f) =
  first_ok (map (fun j => (bevalTE ((k, j) :: E) V d, bevalTE ((k, j) :: E) V f))
                (zrange (aevalTE E V a1) (aevalTE E V a2))).
Proof.
  intros E V k a1 a2 d f. destruct f; try reflexivity.
  simpl. induction (zrange _ _); simpl; [reflexivity|]. rewrite <- IHl.
  rewrite andb_false_r. reflexivity.
Qed.

Ltac df_rw := repeat first [rewrite bevalT_band | rewrite bevalT_bor | rewrite bevalT_check
                           | rewrite bevalT_inr | rewrite bevalT_qall | rewrite bevalT_qfirst].

Ltac df_res E V :=
  repeat match goal with
  | |- context [aevalE E V ?a] =>
      let H := fresh "E" in destruct (aevalE E V a) eqn:H
  | |- context [arerrE E V ?t] => destruct (arerrE E V t)
  end;
  simpl;
  repeat match goal with
  | H : aevalE E V ?a = Ok ?v |- context [aevalTE E V ?a] => rewrite (aevalE_total _ _ _ _ H)
  end.

Lemma DF_mut : forall E V,
  (forall a, bevalTE E V (aD a) = okb (aevalE E V a) /\
             forall k, bevalTE E V (aF k a) = errb k (aevalE E V a)) /\
  (forall t, bevalTE E V (arD t) = nob (arerrE E V t) /\
             forall k, bevalTE E V (arF k t) = someb k (arerrE E V t)).
Proof.
  intros E V. apply aexpr_arr_mut.
  all: try (intros a1 [D1 F1] a2 [D2 F2]; split; [|intros k]; simpl; df_rw;
            rewrite ?D1, ?D2, ?F1, ?F2; unfold lift2, div_res, bind; df_res E V;
            try destruct (v0 =? 0) eqn:Z0; try destruct k; try destruct k0; try destruct k1;
            simpl; rewrite ?Z0; reflexivity).
  - intros n. split; reflexivity.
  - intros x. split; reflexivity.
  - intros a [D F]. split; [|intros k]; simpl; [rewrite D|rewrite F];
      destruct (aevalE E V a); reflexivity.
  - intros t [Dt Ft] lo hi i [Di Fi]. split; [|intros k]; simpl; df_rw;
      rewrite ?Dt, ?Di, ?Ft, ?Fi; unfold bind; df_res E V; unfold in_range in *;
      try destruct ((lo <=? v) && (v <=? hi)); try destruct k; try destruct f; try destruct k0;
      simpl; reflexivity.
  - intros x. split; reflexivity.
  - intros a. split; reflexivity.
  - intros t [Dt Ft] i [Di Fi] v [Dv Fv]. split; [|intros k]; simpl; df_rw;
      rewrite ?Dt, ?Di, ?Dv, ?Ft, ?Fi, ?Fv; df_res E V;
      try destruct k; try destruct f; try destruct k0; try destruct k1; simpl; reflexivity.
Qed.

Lemma aD_okbE : forall E V a, bevalTE E V (aD a) = okb (aevalE E V a).
Proof. intros E V a. apply (proj1 (DF_mut E V)). Qed.

Lemma aF_errbE : forall E V k a, bevalTE E V (aF k a) = errb k (aevalE E V a).
Proof. intros E V k a. apply (proj1 (DF_mut E V)). Qed.

Lemma aD_okb : forall V a, bevalT V (aD a) = okb (aeval V a).
Proof. intros V a. apply aD_okbE. Qed.

Lemma aF_errb : forall V k a, bevalT V (aF k a) = errb k (aeval V a).
Proof. intros V k a. apply aF_errbE. Qed.

Lemma okb_qcombine : forall A (f : A -> res bool) ex l,
  okb (qcombine ex (map f l)) = forallb (fun x => okb (f x)) l.
Proof.
  intros A f ex l. unfold qcombine.
  assert (okb (qall_res (map f l)) = forallb (fun x => okb (f x)) l) as H.
  { induction l as [|x l IH]; simpl; [reflexivity|].
    destruct (f x); simpl; [|reflexivity]. rewrite <- IH.
    destruct (qall_res (map f l)); reflexivity. }
  rewrite <- H. destruct (qall_res (map f l)); reflexivity.
Qed.

Lemma errb_qcombine : forall A (f : A -> res bool) ex k l,
  errb k (qcombine ex (map f l)) = first_ok (map (fun x => (okb (f x), errb k (f x))) l).
Proof.
  intros A f ex k l. unfold qcombine.
  assert (errb k (qall_res (map f l)) = first_ok (map (fun x => (okb (f x), errb k (f x))) l)) as H.
  { induction l as [|x l IH]; simpl; [reflexivity|].
    destruct (f x); simpl.
    - rewrite <- IH. destruct (qall_res (map f l)); reflexivity.
    - rewrite orb_false_r. reflexivity. }
  rewrite <- H. destruct (qall_res (map f l)); reflexivity.
Qed.

Lemma bDF : forall V b E,
  bevalTE E V (bD b) = okb (bevalE E V b) /\ forall k, bevalTE E V (bF k b) = errb k (bevalE E V b).
Proof.
  intros V b; induction b; intros E.
  all: try (split; [|intros k]; reflexivity).
  all: try (split; [|intros k]; simpl; unfold cmpD, cmpF; df_rw;
            rewrite ?aD_okbE, ?aF_errbE; unfold lift2, bind; df_res E V;
            try destruct k; try destruct k0; try destruct k1; reflexivity).
  all: try (destruct (IHb1 E) as [D1 F1], (IHb2 E) as [D2 F2]; split; [|intros k]; simpl; df_rw;
       rewrite ?D1, ?D2, ?F1, ?F2; unfold lift2, bind;
       destruct (bevalE E V b1), (bevalE E V b2); try destruct k; try destruct k0; try destruct k1;
       reflexivity).
  - destruct (IHb E) as [D F]. split; [|intros k]; simpl; [rewrite D|rewrite F];
      destruct (bevalE E V b); reflexivity.
  - split; [|intros c]; simpl; unfold cmpD, cmpF; df_rw; rewrite ?aD_okbE, ?aF_errbE; unfold bind;
      df_res E V; try destruct c; try destruct k0; try destruct k1; try reflexivity.
    all: try (rewrite okb_qcombine; apply forallb_ext'; intros j; apply (proj1 (IHb _))).
    all: rewrite errb_qcombine; f_equal; apply map_ext; intros j;
         rewrite (proj1 (IHb _)), (proj2 (IHb _)); reflexivity.
  - split; [|intros c]; simpl; unfold cmpD, cmpF; df_rw;
      rewrite ?aD_okbE, ?aF_errbE; unfold lift2, bind; df_res E V;
      try destruct c; try destruct k0; try destruct k1; reflexivity.
Qed.

Lemma wDF : forall V lo hi i e,
  bevalT V (wD lo hi i e) = okb (weval V lo hi i e) /\
  forall k, bevalT V (wF k lo hi i e) = errb k (weval V lo hi i e).
Proof.
  intros V lo hi i e. unfold wD, wF, weval, bevalT, aeval, bind. split; [|intros k]; df_rw;
    rewrite ?aD_okbE, ?aF_errbE; df_res (@nil (var * Z)) V; unfold in_range in *;
    try destruct ((lo <=? v) && (v <=? hi)); try destruct k; try destruct k0; try destruct k1;
    reflexivity.
Qed.

Lemma okb_true : forall A (r : res A), okb r = true <-> exists v, r = Ok v.
Proof. intros A [v|k]; simpl; split; intros H; eauto; try discriminate; destruct H; discriminate. Qed.

Lemma okb_false : forall A (r : res A), okb r = false <-> exists k, r = Er k.
Proof. intros A [v|k]; simpl; split; intros H; eauto; try discriminate; destruct H; discriminate. Qed.

Lemma errb_true : forall A k (r : res A), errb k r = true <-> r = Er k.
Proof.
  intros A k [v|k']; simpl; split; intros H; try discriminate.
  - apply fkind_eqb_spec in H. subst. reflexivity.
  - inversion H; subst. apply fkind_eqb_spec. reflexivity.
Qed.

(** [D(a)] holds exactly when [a] is defined. *)
Theorem aD_correct : forall V a,
  bevalT V (aD a) = true <-> (exists v, aeval V a = Ok v).
Proof. intros. rewrite aD_okb. apply okb_true. Qed.

Theorem bD_correct : forall V b,
  bevalT V (bD b) = true <-> (exists v, beval V b = Ok v).
Proof. intros. unfold bevalT, beval. rewrite (proj1 (bDF V b [])). apply okb_true. Qed.

Corollary aD_false : forall V a, bevalT V (aD a) = false <-> exists k, aeval V a = Er k.
Proof. intros. rewrite aD_okb. apply okb_false. Qed.

Corollary bD_false : forall V b, bevalT V (bD b) = false <-> exists k, beval V b = Er k.
Proof. intros. unfold bevalT, beval. rewrite (proj1 (bDF V b [])). apply okb_false. Qed.

(** [F_k(a)] holds exactly when the first error of [a]'s evaluation has kind [k]. *)
Theorem aF_correct : forall V k a, bevalT V (aF k a) = true <-> aeval V a = Er k.
Proof. intros. rewrite aF_errb. apply errb_true. Qed.

Theorem bF_correct : forall V k b, bevalT V (bF k b) = true <-> beval V b = Er k.
Proof. intros. unfold bevalT, beval. rewrite (proj2 (bDF V b [])). apply errb_true. Qed.

Theorem wD_correct : forall V lo hi i e,
  bevalT V (wD lo hi i e) = true <-> exists jv, weval V lo hi i e = Ok jv.
Proof. intros. rewrite (proj1 (wDF V lo hi i e)). apply okb_true. Qed.

Theorem wF_correct : forall V k lo hi i e,
  bevalT V (wF k lo hi i e) = true <-> weval V lo hi i e = Er k.
Proof. intros. rewrite (proj2 (wDF V lo hi i e)). apply errb_true. Qed.

(** ** An error of kind [k] needs an operation that checks [k] *)

Lemma acan_mut : forall E s,
  (forall a k, aevalE E s a = Er k -> acan k a = true) /\
  (forall t k, arerrE E s t = Some k -> arcan k t = true).
Proof.
  intros E s. apply aexpr_arr_mut; intros; simpl in *; try discriminate.
  all: try (unfold lift2, div_res, bind in H1;
            destruct (aevalE E s a1) eqn:E1;
            [destruct (aevalE E s a2) eqn:E2;
             [try (destruct (v0 =? 0)); inversion H1; subst;
              rewrite ?orb_true_r; reflexivity
             |inversion H1; subst; rewrite (H0 _ eq_refl), ?orb_true_r; reflexivity]
            |inversion H1; subst; rewrite (H _ eq_refl); reflexivity]).
  - unfold bind in H0. destruct (aevalE E s a) eqn:E0; inversion H0; subst. auto.
  - destruct (arerrE E s t) eqn:Et.
    + inversion H1; subst. rewrite (H _ eq_refl). reflexivity.
    + unfold bind in H1. destruct (aevalE E s i) eqn:Ei.
      * destruct (in_range lo hi v); inversion H1; subst. rewrite !orb_true_r. reflexivity.
      * inversion H1; subst. rewrite (H0 _ eq_refl), orb_true_r. reflexivity.
  - destruct (arerrE E s t) eqn:Et.
    + inversion H2; subst. rewrite (H _ eq_refl). reflexivity.
    + destruct (aevalE E s i) eqn:Ei.
      * destruct (aevalE E s v) eqn:Ev; inversion H2; subst.
        rewrite (H1 _ eq_refl), !orb_true_r. reflexivity.
      * inversion H2; subst. rewrite (H0 _ eq_refl), orb_true_r. reflexivity.
Qed.

Lemma aevalE_err_can : forall E s a k, aevalE E s a = Er k -> acan k a = true.
Proof. intros E s. apply (proj1 (acan_mut E s)). Qed.

Lemma aeval_err_can : forall s a k, aeval s a = Er k -> acan k a = true.
Proof. intros s. apply (proj1 (acan_mut [] s)). Qed.

Lemma bevalE_err_can : forall s b E k, bevalE E s b = Er k -> bcan k b = true.
Proof.
  intros s b; induction b; intros E c H; simpl in *; try discriminate.
  all: try (unfold lift2, bind in H; destruct (aevalE E s a1) eqn:E1;
            [destruct (aevalE E s a2) eqn:E2; inversion H; subst;
             rewrite (aevalE_err_can _ _ _ _ E2), ?orb_true_r; reflexivity
            |inversion H; subst; rewrite (aevalE_err_can _ _ _ _ E1); reflexivity]).
  all: try (unfold lift2, bind in H; destruct (bevalE E s b1) eqn:E1;
       [destruct (bevalE E s b2) eqn:E2; inversion H; subst;
        rewrite (IHb2 _ _ E2), orb_true_r; reflexivity
       |inversion H; subst; rewrite (IHb1 _ _ E1); reflexivity]).
  - unfold bind in H. destruct (bevalE E s b) eqn:Eb; inversion H; subst. eauto.
  - unfold bind in H. destruct (aevalE E s a1) eqn:E1.
    + destruct (aevalE E s a2) eqn:E2.
      * destruct (qcombine_err _ _ _ _ _ H) as [j [_ Hj]].
        rewrite (IHb _ _ Hj), !orb_true_r. reflexivity.
      * inversion H; subst. rewrite (aevalE_err_can _ _ _ _ E2), orb_true_r. reflexivity.
    + inversion H; subst. rewrite (aevalE_err_can _ _ _ _ E1). reflexivity.
Qed.

Lemma beval_err_can : forall s b k, beval s b = Er k -> bcan k b = true.
Proof. intros s b k. apply bevalE_err_can. Qed.

Lemma weval_err_can : forall s lo hi i e k, weval s lo hi i e = Er k -> wcan k i e = true.
Proof.
  intros s lo hi i e k H. unfold weval, bind, wcan in *.
  destruct (aeval s i) eqn:Ei.
  - destruct (aeval s e) eqn:Ee.
    + destruct (in_range lo hi v); inversion H; subst. rewrite orb_true_r. reflexivity.
    + inversion H; subst. rewrite (aeval_err_can _ _ _ Ee), orb_true_r. reflexivity.
  - inversion H; subst. rewrite (aeval_err_can _ _ _ Ei). reflexivity.
Qed.

(** ** Evaluation only depends on the store pointwise *)

Lemma aevalT_ext_mut : forall E s1 s2, store_eq s1 s2 ->
  (forall a, aevalTE E s1 a = aevalTE E s2 a) /\ (forall t j, agetTE E s1 t j = agetTE E s2 t j).
Proof.
  intros E s1 s2 [Hv Ha]. apply aexpr_arr_mut; intros; simpl; try congruence.
  rewrite H0, H1, H. reflexivity.
Qed.

Lemma aevalTE_ext : forall E s1 s2 a, store_eq s1 s2 -> aevalTE E s1 a = aevalTE E s2 a.
Proof. intros E s1 s2 a H. apply (proj1 (aevalT_ext_mut E _ _ H)). Qed.

Lemma agetTE_ext : forall E s1 s2 t j, store_eq s1 s2 -> agetTE E s1 t j = agetTE E s2 t j.
Proof. intros E s1 s2 t j H. apply (proj2 (aevalT_ext_mut E _ _ H)). Qed.

Lemma aevalT_ext : forall s1 s2 a, store_eq s1 s2 -> aevalT s1 a = aevalT s2 a.
Proof. intros s1 s2 a H. apply aevalTE_ext, H. Qed.

Lemma agetT_ext : forall s1 s2 t j, store_eq s1 s2 -> agetT s1 t j = agetT s2 t j.
Proof. intros s1 s2 t j H. apply agetTE_ext, H. Qed.

Lemma bevalTE_ext : forall s1 s2 b E, store_eq s1 s2 -> bevalTE E s1 b = bevalTE E s2 b.
Proof.
  intros s1 s2 b; induction b; intros E H; simpl;
    try rewrite (IHb E H); try rewrite (IHb1 E H); try rewrite (IHb2 E H);
    try rewrite (aevalTE_ext E _ _ a1 H); try rewrite (aevalTE_ext E _ _ a2 H); try reflexivity.
  - destruct ex; [apply existsb_ext'|apply forallb_ext']; intros j; apply IHb, H.
  - f_equal. apply map_ext. intros j. rewrite (IHb1 _ H), (IHb2 _ H). reflexivity.
Qed.

Lemma bevalT_ext : forall s1 s2 b, store_eq s1 s2 -> bevalT s1 b = bevalT s2 b.
Proof. intros s1 s2 b H. apply bevalTE_ext, H. Qed.

Lemma aeval_ext_mut : forall E s1 s2, store_eq s1 s2 ->
  (forall a, aevalE E s1 a = aevalE E s2 a) /\ (forall t, arerrE E s1 t = arerrE E s2 t).
Proof.
  intros E s1 s2 H. pose proof H as [Hv Ha]. apply aexpr_arr_mut; intros; simpl; try congruence.
  - rewrite H0, H1. destruct (arerrE E s2 t); [reflexivity|].
    destruct (aevalE E s2 i); simpl; [|reflexivity].
    rewrite (agetTE_ext E _ _ t v H). reflexivity.
  - rewrite H0, H1, H2. reflexivity.
Qed.

Lemma aevalE_ext : forall E s1 s2 a, store_eq s1 s2 -> aevalE E s1 a = aevalE E s2 a.
Proof. intros E s1 s2 a H. apply (proj1 (aeval_ext_mut E _ _ H)). Qed.

Lemma aeval_ext : forall s1 s2 a, store_eq s1 s2 -> aeval s1 a = aeval s2 a.
Proof. intros s1 s2 a H. apply aevalE_ext, H. Qed.

Lemma bevalE_ext : forall s1 s2 b E, store_eq s1 s2 -> bevalE E s1 b = bevalE E s2 b.
Proof.
  intros s1 s2 b; induction b; intros E H; simpl;
    try rewrite (IHb E H); try rewrite (IHb1 E H); try rewrite (IHb2 E H);
    try rewrite (aevalE_ext E _ _ a1 H); try rewrite (aevalE_ext E _ _ a2 H); try reflexivity.
  - unfold bind. destruct (aevalE E s2 a1); [|reflexivity]. destruct (aevalE E s2 a2); [|reflexivity].
    f_equal. apply map_ext. intros j. apply IHb, H.
  - unfold bind. destruct (aevalE E s2 a1); [|reflexivity]. destruct (aevalE E s2 a2); [|reflexivity].
    f_equal. f_equal. apply map_ext. intros j. rewrite !(bevalTE_ext s1 s2) by exact H. reflexivity.
Qed.

Lemma beval_ext : forall s1 s2 b, store_eq s1 s2 -> beval s1 b = beval s2 b.
Proof. intros s1 s2 b H. apply bevalE_ext, H. Qed.

Lemma weval_ext : forall s1 s2 lo hi i e, store_eq s1 s2 -> weval s1 lo hi i e = weval s2 lo hi i e.
Proof. intros. unfold weval. rewrite !(aeval_ext s1 s2) by assumption. reflexivity. Qed.

Lemma update_ext : forall s1 s2 x v,
  store_eq s1 s2 -> store_eq (update s1 x v) (update s2 x v).
Proof.
  intros s1 s2 x v [Hv Ha]. split; simpl; [|assumption].
  intros y. destruct (String.eqb x y); auto.
Qed.

Lemma aupdate_ext : forall s1 s2 a j v,
  store_eq s1 s2 -> store_eq (aupdate s1 a j v) (aupdate s2 a j v).
Proof.
  intros s1 s2 a j v [Hv Ha]. split; simpl; [assumption|].
  intros b i. destruct (String.eqb a b && (j =? i)); auto.
Qed.

Lemma store_eq_refl : forall s, store_eq s s.
Proof. intros s. split; reflexivity. Qed.

Lemma store_eq_sym : forall s1 s2, store_eq s1 s2 -> store_eq s2 s1.
Proof. intros s1 s2 [Hv Ha]. split; intros; symmetry; auto. Qed.

Lemma store_eq_trans : forall s1 s2 s3, store_eq s1 s2 -> store_eq s2 s3 -> store_eq s1 s3.
Proof. intros s1 s2 s3 [Hv1 Ha1] [Hv2 Ha2]. split; intros; congruence. Qed.

Lemma step_ext : forall s1 p s1' p' s2,
  step (s1, p) (s1', p') -> store_eq s1 s2 ->
  exists s2', step (s2, p) (s2', p') /\ store_eq s1' s2'.
Proof.
  intros s1 p s1' p' s2 Hs. remember (s1, p) as c. remember (s1', p') as c'.
  revert s1 p s1' p' s2 Heqc Heqc'.
  induction Hs; intros s1 p0 s1' p0' s2 E E' Heq; inversion E; inversion E'; subst.
  - exists (update s2 x v). split.
    + constructor. rewrite <- (aeval_ext _ _ _ Heq). assumption.
    + apply update_ext; assumption.
  - exists s2. split; [constructor; rewrite <- (aeval_ext _ _ _ Heq)|]; assumption.
  - exists (aupdate s2 a j v). split.
    + constructor. rewrite <- (weval_ext _ _ _ _ _ _ Heq). assumption.
    + apply aupdate_ext; assumption.
  - exists s2. split; [apply S_ArrAssignErr; rewrite <- (weval_ext _ _ _ _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_IfTrue; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_IfFalse; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_IfErr; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [constructor|]; assumption.
  - exists s2. split; [apply S_Assume; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_AssumeErr; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [constructor|]; assumption.
  - destruct (IHHs s1 p s1' p' s2 eq_refl eq_refl Heq) as [s2' [H1 H2]].
    exists s2'. split; [constructor|]; assumption.
Qed.

Lemma steps_ext : forall s1 p s1' p' s2,
  steps (s1, p) (s1', p') -> store_eq s1 s2 ->
  exists s2', steps (s2, p) (s2', p') /\ store_eq s1' s2'.
Proof.
  intros s1 p s1' p' s2 Hs. remember (s1, p) as c. remember (s1', p') as c'.
  revert s1 p s2 Heqc. induction Hs; intros s1 p0 s2 E Heq; subst.
  - inversion E; subst. exists s2. split; [constructor|assumption].
  - destruct b as [sb pb].
    destruct (step_ext _ _ _ _ _ H Heq) as [s2b [H1 H2]].
    destruct (IHHs eq_refl sb pb s2b eq_refl H2) as [s2' [H3 H4]].
    exists s2'. split; [econstructor; eauto|assumption].
Qed.

Lemma star_trans : forall A (R : A -> A -> Prop) a b c, star R a b -> star R b c -> star R a c.
Proof. intros A R a b c H1 H2. induction H1; [assumption|econstructor; eauto]. Qed.

Lemma star_one : forall A (R : A -> A -> Prop) a b, R a b -> star R a b.
Proof. intros. econstructor; [eassumption|constructor]. Qed.

(** ** Error states *)

Lemma is_error_correct : forall p, is_error p = true <-> exists k, head p = Fail k.
Proof.
  intros p. unfold is_error. destruct (head p); split; intros H; try discriminate; eauto;
    destruct H; discriminate.
Qed.

Lemma head_fail_no_step : forall p k, head p = Fail k -> forall s c, ~ step (s, p) c.
Proof.
  induction p; simpl; intros k' H s c Hs; try discriminate; inversion Hs; subst.
  - simpl in H; discriminate.
  - eapply IHp1; eauto.
Qed.

Lemma is_error_no_step : forall s p c, is_error p = true -> ~ step (s, p) c.
Proof.
  intros s p c H. apply is_error_correct in H. destruct H as [k H].
  apply (head_fail_no_step _ k); assumption.
Qed.

(** ** The executable step is exactly the relation (Go: [spec.Step]) *)

Theorem cstep_sound : forall s p s' p', cstep s p = Next s' p' -> step (s, p) (s', p').
Proof.
  intros s p; revert s; induction p; intros s s' p' H; simpl in H; try discriminate.
  - destruct (aeval s a) eqn:E; inversion H; subst; constructor; assumption.
  - destruct (weval s lo hi i e) as [[j v]|k] eqn:E; inversion H; subst; constructor; assumption.
  - destruct p1;
      try (destruct (cstep s _) eqn:E; inversion H; subst; constructor; apply IHp1; assumption).
    inversion H; subst. constructor.
  - destruct (beval s b) as [[|]|] eqn:E; inversion H; subst.
    + apply S_IfTrue; assumption.
    + apply S_IfFalse; assumption.
    + apply S_IfErr; assumption.
  - inversion H; subst. constructor.
  - destruct (beval s b) as [[|]|] eqn:E; inversion H; subst.
    + apply S_Assume; assumption.
    + apply S_AssumeErr; assumption.
Qed.

Theorem cstep_complete : forall s p s' p', step (s, p) (s', p') -> cstep s p = Next s' p'.
Proof.
  intros s p s' p' H. remember (s, p) as c. remember (s', p') as c'.
  revert s p s' p' Heqc Heqc'.
  induction H; intros s0 p0 s0' p0' E E'; inversion E; inversion E'; subst; simpl;
    try (rewrite H; reflexivity); try reflexivity.
  rewrite (IHstep s0 p s0' p' eq_refl eq_refl).
  destruct p; try reflexivity. inversion H.
Qed.

Theorem cstep_correct : forall s p s' p', cstep s p = Next s' p' <-> step (s, p) (s', p').
Proof. split; [apply cstep_sound|apply cstep_complete]. Qed.

Lemma cstep_seq : forall s p1 q, p1 <> Skip ->
  cstep s (Seq p1 q) = match cstep s p1 with
                       | Next s' p' => Next s' (Seq p' q)
                       | r => r
                       end.
Proof. intros s p1 q H. destruct p1; try reflexivity. congruence. Qed.

Lemma head_not_skip : forall p k, head p = Fail k -> p <> Skip.
Proof. intros p k H E; subst; discriminate. Qed.

Lemma head_assume_not_skip : forall p b, head p = Assume b -> p <> Skip.
Proof. intros p b H E; subst; discriminate. Qed.

Theorem cstep_final : forall s p, cstep s p = Final <-> p = Skip.
Proof.
  intros s p; split; [|intros ->; reflexivity].
  revert s; induction p; intros s H; simpl in H; try discriminate; try reflexivity.
  - destruct (aeval s a); discriminate.
  - destruct (weval s lo hi i e) as [[? ?]|]; discriminate.
  - destruct p1; try discriminate;
      destruct (cstep s _) eqn:E; try discriminate; apply IHp1 in E; discriminate.
  - destruct (beval s b) as [[|]|]; discriminate.
  - destruct (beval s b) as [[|]|]; discriminate.
Qed.

Theorem cstep_error : forall s p, cstep s p = Error <-> is_error p = true.
Proof.
  intros s p. rewrite is_error_correct. revert s; induction p; intros s.
  all: try (simpl; split; intros H; try discriminate; eauto;
            destruct H; discriminate; fail).
  - simpl. destruct (aeval s a); split; intros H; try discriminate; destruct H; discriminate.
  - simpl. destruct (weval s lo hi i e) as [[? ?]|]; split; intros H; try discriminate;
      destruct H; discriminate.
  - simpl head. split; intros H.
    + destruct (Syntax.stmt_eq_dec p1 Skip) as [->|Hne]; [discriminate|].
      rewrite cstep_seq in H by exact Hne. apply (IHp1 s).
      destruct (cstep s p1); congruence.
    + destruct H as [k H].
      rewrite cstep_seq by (apply (head_not_skip _ k); exact H).
      assert (cstep s p1 = Error) as E by (apply (IHp1 s); eauto). rewrite E. reflexivity.
  - simpl. destruct (beval s b) as [[|]|]; split; intros H; try discriminate;
      destruct H; discriminate.
  - simpl. destruct (beval s b) as [[|]|]; split; intros H; try discriminate;
      destruct H; discriminate.
Qed.

Theorem cstep_stuck : forall s p,
  cstep s p = Stuck <-> exists b, head p = Assume b /\ beval s b = Ok false.
Proof.
  intros s p. revert s; induction p; intros s.
  all: try (simpl; split; intros H; [discriminate|destruct H as [b' [H1 H2]]; discriminate]).
  - simpl. destruct (aeval s a); split; intros H;
      try discriminate; destruct H as [b' [H1 H2]]; discriminate.
  - simpl. destruct (weval s lo hi i e) as [[? ?]|]; split; intros H;
      try discriminate; destruct H as [b' [H1 H2]]; discriminate.
  - simpl head. split; intros H.
    + destruct (Syntax.stmt_eq_dec p1 Skip) as [->|Hne]; [discriminate|].
      rewrite cstep_seq in H by exact Hne. apply (IHp1 s).
      destruct (cstep s p1); congruence.
    + destruct H as [b [H1 H2]].
      rewrite cstep_seq by (apply (head_assume_not_skip _ b); exact H1).
      assert (cstep s p1 = Stuck) as E by (apply (IHp1 s); eauto).
      rewrite E. reflexivity.
  - simpl. destruct (beval s b) as [[|]|]; split; intros H;
      try discriminate; destruct H as [b' [H1 H2]]; discriminate.
  - simpl. destruct (beval s b) as [[|]|] eqn:E; split; intros H;
      try discriminate; eauto;
      destruct H as [b' [H1 H2]]; inversion H1; subst; congruence.
Qed.

(** ** Quantifiers and the first-failure connective mean the design's formulas *)

Lemma zrange_nil : forall lo hi, hi < lo -> zrange lo hi = [].
Proof. intros lo hi H. unfold zrange. replace (Z.to_nat (hi - lo + 1)) with 0%nat by lia. reflexivity. Qed.

Lemma zrange_cons : forall lo hi, lo <= hi -> zrange lo hi = lo :: zrange (lo + 1) hi.
Proof.
  intros lo hi H. unfold zrange.
  replace (Z.to_nat (hi - lo + 1)) with (S (Z.to_nat (hi - (lo + 1) + 1))) by lia.
  simpl. f_equal; [lia|]. rewrite <- seq_shift, map_map. apply map_ext. intros n. lia.
Qed.

(** The instances of a range, by well-founded induction on its length. *)
Lemma zrange_ind : forall (P : Z -> Z -> Prop),
  (forall lo hi, hi < lo -> P lo hi) ->
  (forall lo hi, lo <= hi -> P (lo + 1) hi -> P lo hi) ->
  forall lo hi, P lo hi.
Proof.
  intros P Hnil Hcons lo hi.
  remember (Z.to_nat (hi - lo + 1)) as n eqn:En. revert lo En.
  induction n as [|n IH]; intros lo En.
  - apply Hnil. lia.
  - apply Hcons; [lia|]. apply IH. lia.
Qed.

Lemma first_ok_range : forall (D F : Z -> bool) lo hi,
  first_ok (map (fun j => (D j, F j)) (zrange lo hi)) = true <->
  exists j, lo <= j <= hi /\ F j = true /\ forall i, lo <= i < j -> D i = true.
Proof.
  intros D F. apply zrange_ind.
  - intros lo hi H. rewrite zrange_nil by exact H. simpl. split; [discriminate|].
    intros (j & Hj & _). lia.
  - intros lo hi H IH. rewrite zrange_cons by exact H. simpl. split.
    + intros Hf. apply orb_true_iff in Hf. destruct Hf as [Hf|Hf].
      * exists lo. split; [lia|]. split; [exact Hf|]. intros i Hi. lia.
      * apply andb_true_iff in Hf. destruct Hf as [Hd Hr]. apply IH in Hr.
        destruct Hr as (j & Hj & Hfj & Hdj). exists j. split; [lia|]. split; [exact Hfj|].
        intros i Hi. destruct (Z.eq_dec i lo) as [->|Hne]; [exact Hd|]. apply Hdj. lia.
    + intros (j & Hj & Hfj & Hdj). apply orb_true_iff.
      destruct (Z.eq_dec j lo) as [->|Hne]; [left; exact Hfj|]. right.
      apply andb_true_iff. split; [apply Hdj; lia|]. apply IH.
      exists j. split; [lia|]. split; [exact Hfj|]. intros i Hi. apply Hdj. lia.
Qed.

Lemma forallb_range : forall (B : Z -> bool) lo hi,
  forallb B (zrange lo hi) = true <-> forall j, lo <= j <= hi -> B j = true.
Proof.
  intros B. apply zrange_ind.
  - intros lo hi H. rewrite zrange_nil by exact H. simpl. split; [intros _ j Hj; lia|reflexivity].
  - intros lo hi H IH. rewrite zrange_cons by exact H. simpl. rewrite andb_true_iff, IH. split.
    + intros [H1 H2] j Hj. destruct (Z.eq_dec j lo) as [->|Hne]; [exact H1|]. apply H2. lia.
    + intros H1. split; [apply H1; lia|]. intros j Hj. apply H1. lia.
Qed.

Lemma existsb_range : forall (B : Z -> bool) lo hi,
  existsb B (zrange lo hi) = true <-> exists j, lo <= j <= hi /\ B j = true.
Proof.
  intros B. apply zrange_ind.
  - intros lo hi H. rewrite zrange_nil by exact H. simpl. split; [discriminate|].
    intros (j & Hj & _). lia.
  - intros lo hi H IH. rewrite zrange_cons by exact H. simpl. rewrite orb_true_iff, IH. split.
    + intros [H1|(j & Hj & H2)]; [exists lo; split; [lia|exact H1]|exists j; split; [lia|exact H2]].
    + intros (j & Hj & H2). destruct (Z.eq_dec j lo) as [->|Hne]; [left; exact H2|].
      right. exists j. split; [lia|exact H2].
Qed.

(** The quantifiers mean what they say: [forall k in a1..a2: b] holds iff every instance
    [b[k := j]] with [a1 <= j <= a2] does (true on an empty range), [exists] iff some does. *)
Theorem forall_correct : forall E V k a1 a2 b,
  bevalTE E V (Bquant false k a1 a2 b) = true <->
  forall j, aevalTE E V a1 <= j <= aevalTE E V a2 -> bevalTE ((k, j) :: E) V b = true.
Proof. intros. simpl. apply forallb_range. Qed.

Theorem exists_correct : forall E V k a1 a2 b,
  bevalTE E V (Bquant true k a1 a2 b) = true <->
  exists j, aevalTE E V a1 <= j <= aevalTE E V a2 /\ bevalTE ((k, j) :: E) V b = true.
Proof. intros. simpl. apply existsb_range. Qed.

(** [Bfirst] is the last disjunct of the design's first-failure formula of a quantifier,
    [∃ j ∈ a1..a2: (∀ i ∈ a1..j-1: d[k := i]) ∧ f[k := j]]. *)
Theorem first_correct : forall E V k a1 a2 d f,
  bevalTE E V (Bfirst k a1 a2 d f) = true <->
  exists j, aevalTE E V a1 <= j <= aevalTE E V a2 /\ bevalTE ((k, j) :: E) V f = true /\
            forall i, aevalTE E V a1 <= i < j -> bevalTE ((k, i) :: E) V d = true.
Proof.
  intros. simpl.
  apply (first_ok_range (fun j => bevalTE ((k, j) :: E) V d) (fun j => bevalTE ((k, j) :: E) V f)).
Qed.
