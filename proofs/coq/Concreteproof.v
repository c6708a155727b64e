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

(** ** Evaluation: a defined value is the total value *)

Lemma aeval_total_mut : forall s,
  (forall a v, aeval s a = Ok v -> aevalT s a = v) /\ (forall t : arr, True).
Proof.
  intros s. apply aexpr_arr_mut; intros; simpl in *; auto.
  all: try (unfold lift2, div_res, bind in H1;
            destruct (aeval s a1) eqn:E1; try discriminate;
            destruct (aeval s a2) eqn:E2; try discriminate;
            try (destruct (v1 =? 0)); try discriminate;
            inversion H1; rewrite (H _ eq_refl), (H0 _ eq_refl); reflexivity).
  - inversion H; reflexivity.
  - inversion H; reflexivity.
  - destruct (aeval s a) eqn:E; simpl in H0; inversion H0. rewrite (H _ eq_refl). reflexivity.
  - destruct (arerr s t); [discriminate|].
    unfold bind in H1. destruct (aeval s i) eqn:E; [|discriminate].
    destruct (in_range lo hi v0); inversion H1. rewrite (H0 _ eq_refl). reflexivity.
Qed.

Lemma aeval_total : forall s a v, aeval s a = Ok v -> aevalT s a = v.
Proof. intros s. apply (proj1 (aeval_total_mut s)). Qed.

Lemma beval_total : forall s b v, beval s b = Ok v -> bevalT s b = v.
Proof.
  intros s b; induction b; intros v H; simpl in *;
    try (inversion H; reflexivity).
  all: try (unfold lift2, bind in H;
            destruct (aeval s a1) eqn:E1; try discriminate;
            destruct (aeval s a2) eqn:E2; try discriminate; inversion H; subst;
            rewrite (aeval_total _ _ _ E1), (aeval_total _ _ _ E2); reflexivity).
  - unfold bind in H. destruct (beval s b); inversion H. rewrite (IHb v0 eq_refl). reflexivity.
  - unfold lift2, bind in H. destruct (beval s b1) eqn:E1; try discriminate;
      destruct (beval s b2) eqn:E2; try discriminate; inversion H; subst.
    rewrite (IHb1 v0 eq_refl), (IHb2 v1 eq_refl). reflexivity.
  - unfold lift2, bind in H. destruct (beval s b1) eqn:E1; try discriminate;
      destruct (beval s b2) eqn:E2; try discriminate; inversion H; subst.
    rewrite (IHb1 v0 eq_refl), (IHb2 v1 eq_refl). reflexivity.
Qed.

(** ** [D] and [F_k] *)

Lemma bevalT_band : forall V b1 b2, bevalT V (band b1 b2) = bevalT V b1 && bevalT V b2.
Proof.
  intros V b1 b2. destruct b1, b2; simpl; rewrite ?andb_true_r, ?andb_false_r; reflexivity.
Qed.

Lemma bevalT_bor : forall V b1 b2, bevalT V (bor b1 b2) = bevalT V b1 || bevalT V b2.
Proof.
  intros V b1 b2. destruct b1, b2; simpl; rewrite ?orb_false_r, ?orb_true_r; reflexivity.
Qed.

Lemma bevalT_check : forall V k k' c, bevalT V (check_if k k' c) = fkind_eqb k k' && bevalT V c.
Proof. intros V k k' c. unfold check_if. destruct (fkind_eqb k k'); reflexivity. Qed.

Lemma bevalT_inr : forall V lo hi i, bevalT V (inr lo hi i) = in_range lo hi (aevalT V i).
Proof. reflexivity. Qed.

Ltac df_rw := repeat first [rewrite bevalT_band | rewrite bevalT_bor | rewrite bevalT_check | rewrite bevalT_inr].

Ltac df_res V :=
  repeat match goal with
  | |- context [aeval V ?a] =>
      let E := fresh "E" in destruct (aeval V a) eqn:E
  | |- context [arerr V ?t] => destruct (arerr V t)
  end;
  simpl;
  repeat match goal with
  | E : aeval V ?a = Ok ?v |- context [aevalT V ?a] => rewrite (aeval_total _ _ _ E)
  end.

Lemma DF_mut : forall V,
  (forall a, bevalT V (aD a) = okb (aeval V a) /\
             forall k, bevalT V (aF k a) = errb k (aeval V a)) /\
  (forall t, bevalT V (arD t) = nob (arerr V t) /\
             forall k, bevalT V (arF k t) = someb k (arerr V t)).
Proof.
  intros V. apply aexpr_arr_mut.
  all: try (intros a1 [D1 F1] a2 [D2 F2]; split; [|intros k]; simpl; df_rw;
            rewrite ?D1, ?D2, ?F1, ?F2; unfold lift2, div_res, bind; df_res V;
            try destruct (v0 =? 0) eqn:Z0; try destruct k; try destruct k0; try destruct k1;
            simpl; rewrite ?Z0; reflexivity).
  - intros n. split; reflexivity.
  - intros x. split; reflexivity.
  - intros a [D F]. split; [|intros k]; simpl; [rewrite D|rewrite F];
      destruct (aeval V a); reflexivity.
  - intros t [Dt Ft] lo hi i [Di Fi]. split; [|intros k]; simpl; df_rw;
      rewrite ?Dt, ?Di, ?Ft, ?Fi; unfold bind; df_res V; unfold in_range in *;
      try destruct ((lo <=? v) && (v <=? hi)); try destruct k; try destruct f; try destruct k0;
      simpl; reflexivity.
  - intros a. split; reflexivity.
  - intros t [Dt Ft] i [Di Fi] v [Dv Fv]. split; [|intros k]; simpl; df_rw;
      rewrite ?Dt, ?Di, ?Dv, ?Ft, ?Fi, ?Fv; df_res V;
      try destruct k; try destruct f; try destruct k0; try destruct k1; simpl; reflexivity.
Qed.

Lemma aD_okb : forall V a, bevalT V (aD a) = okb (aeval V a).
Proof. intros V a. apply (proj1 (DF_mut V)). Qed.

Lemma aF_errb : forall V k a, bevalT V (aF k a) = errb k (aeval V a).
Proof. intros V k a. apply (proj1 (DF_mut V)). Qed.

Lemma arD_nob : forall V t, bevalT V (arD t) = nob (arerr V t).
Proof. intros V t. apply (proj2 (DF_mut V)). Qed.

Lemma bDF : forall V b,
  bevalT V (bD b) = okb (beval V b) /\ forall k, bevalT V (bF k b) = errb k (beval V b).
Proof.
  intros V b; induction b.
  all: try (split; [|intros k]; reflexivity).
  all: try (split; [|intros k]; simpl; unfold cmpD, cmpF; df_rw;
            rewrite ?aD_okb, ?aF_errb; unfold lift2, bind; df_res V;
            try destruct k; try destruct k0; try destruct k1; reflexivity).
  all: try (destruct IHb1 as [D1 F1], IHb2 as [D2 F2]; split; [|intros k]; simpl; df_rw;
       rewrite ?D1, ?D2, ?F1, ?F2; unfold lift2, bind;
       destruct (beval V b1), (beval V b2); try destruct k; try destruct k0; try destruct k1;
       reflexivity).
  - destruct IHb as [D F]. split; [|intros k]; simpl; [rewrite D|rewrite F];
      destruct (beval V b); reflexivity.
Qed.

Lemma wDF : forall V lo hi i e,
  bevalT V (wD lo hi i e) = okb (weval V lo hi i e) /\
  forall k, bevalT V (wF k lo hi i e) = errb k (weval V lo hi i e).
Proof.
  intros V lo hi i e. unfold wD, wF, weval, bind. split; [|intros k]; df_rw;
    rewrite ?aD_okb, ?aF_errb; df_res V; unfold in_range in *;
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
Proof. intros. rewrite (proj1 (bDF V b)). apply okb_true. Qed.

Corollary aD_false : forall V a, bevalT V (aD a) = false <-> exists k, aeval V a = Er k.
Proof. intros. rewrite aD_okb. apply okb_false. Qed.

Corollary bD_false : forall V b, bevalT V (bD b) = false <-> exists k, beval V b = Er k.
Proof. intros. rewrite (proj1 (bDF V b)). apply okb_false. Qed.

(** [F_k(a)] holds exactly when the first error of [a]'s evaluation has kind [k]. *)
Theorem aF_correct : forall V k a, bevalT V (aF k a) = true <-> aeval V a = Er k.
Proof. intros. rewrite aF_errb. apply errb_true. Qed.

Theorem bF_correct : forall V k b, bevalT V (bF k b) = true <-> beval V b = Er k.
Proof. intros. rewrite (proj2 (bDF V b)). apply errb_true. Qed.

Theorem wD_correct : forall V lo hi i e,
  bevalT V (wD lo hi i e) = true <-> exists jv, weval V lo hi i e = Ok jv.
Proof. intros. rewrite (proj1 (wDF V lo hi i e)). apply okb_true. Qed.

Theorem wF_correct : forall V k lo hi i e,
  bevalT V (wF k lo hi i e) = true <-> weval V lo hi i e = Er k.
Proof. intros. rewrite (proj2 (wDF V lo hi i e)). apply errb_true. Qed.

(** ** An error of kind [k] needs an operation that checks [k] *)

Lemma acan_mut : forall s,
  (forall a k, aeval s a = Er k -> acan k a = true) /\
  (forall t k, arerr s t = Some k -> arcan k t = true).
Proof.
  intros s. apply aexpr_arr_mut; intros; simpl in *; try discriminate.
  all: try (unfold lift2, div_res, bind in H1;
            destruct (aeval s a1) eqn:E1;
            [destruct (aeval s a2) eqn:E2;
             [try (destruct (v0 =? 0)); inversion H1; subst;
              rewrite ?orb_true_r; reflexivity
             |inversion H1; subst; rewrite (H0 _ eq_refl), ?orb_true_r; reflexivity]
            |inversion H1; subst; rewrite (H _ eq_refl); reflexivity]).
  - destruct (aeval s a) eqn:E; simpl in H0; inversion H0; subst. auto.
  - match goal with |- context [arcan _ ?t] => destruct (arerr s t) eqn:Et end.
    + inversion H1; subst. rewrite (H _ eq_refl). reflexivity.
    + unfold bind in H1. match type of H1 with context [aeval s ?i] => destruct (aeval s i) eqn:Ei end.
      * match type of H1 with context [in_range ?lo ?hi ?w] => destruct (in_range lo hi w) end;
          inversion H1; subst. rewrite !orb_true_r. reflexivity.
      * inversion H1; subst. rewrite (H0 _ eq_refl), orb_true_r. reflexivity.
  - match goal with |- context [arcan _ ?t || _] => destruct (arerr s t) eqn:Et end.
    + inversion H2; subst. rewrite (H _ eq_refl). reflexivity.
    + match type of H2 with context [aeval s ?i] => destruct (aeval s i) eqn:Ei end.
      * match type of H2 with context [aeval s ?i] => destruct (aeval s i) eqn:Ev end;
          inversion H2; subst.
        rewrite (H1 _ eq_refl), !orb_true_r. reflexivity.
      * inversion H2; subst. rewrite (H0 _ eq_refl), orb_true_r. reflexivity.
Qed.

Lemma aeval_err_can : forall s a k, aeval s a = Er k -> acan k a = true.
Proof. intros s. apply (proj1 (acan_mut s)). Qed.

Lemma beval_err_can : forall s b k, beval s b = Er k -> bcan k b = true.
Proof.
  intros s b; induction b; intros k H; simpl in *; try discriminate.
  all: try (unfold lift2, bind in H; destruct (aeval s a1) eqn:E1;
            [destruct (aeval s a2) eqn:E2; inversion H; subst;
             rewrite (aeval_err_can _ _ _ E2), orb_true_r; reflexivity
            |inversion H; subst; rewrite (aeval_err_can _ _ _ E1); reflexivity]).
  all: try (unfold lift2, bind in H; destruct (beval s b1) eqn:E1;
       [destruct (beval s b2) eqn:E2; inversion H; subst;
        rewrite (IHb2 _ eq_refl), orb_true_r; reflexivity
       |inversion H; subst; rewrite (IHb1 _ eq_refl); reflexivity]).
  - unfold bind in H. destruct (beval s b); inversion H; subst. auto.
Qed.

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

Lemma aevalT_ext_mut : forall s1 s2, store_eq s1 s2 ->
  (forall a, aevalT s1 a = aevalT s2 a) /\ (forall t j, agetT s1 t j = agetT s2 t j).
Proof.
  intros s1 s2 [Hv Ha]. apply aexpr_arr_mut; intros; simpl; try congruence.
  rewrite H0, H1, H. reflexivity.
Qed.

Lemma aevalT_ext : forall s1 s2 a, store_eq s1 s2 -> aevalT s1 a = aevalT s2 a.
Proof. intros s1 s2 a H. apply (proj1 (aevalT_ext_mut _ _ H)). Qed.

Lemma agetT_ext : forall s1 s2 t j, store_eq s1 s2 -> agetT s1 t j = agetT s2 t j.
Proof. intros s1 s2 t j H. apply (proj2 (aevalT_ext_mut _ _ H)). Qed.

Lemma bevalT_ext : forall s1 s2 b, store_eq s1 s2 -> bevalT s1 b = bevalT s2 b.
Proof.
  intros s1 s2 b H; induction b; simpl;
    try rewrite IHb; try rewrite IHb1; try rewrite IHb2;
    try rewrite (aevalT_ext _ _ a1 H); try rewrite (aevalT_ext _ _ a2 H); reflexivity.
Qed.

Lemma aeval_ext_mut : forall s1 s2, store_eq s1 s2 ->
  (forall a, aeval s1 a = aeval s2 a) /\ (forall t, arerr s1 t = arerr s2 t).
Proof.
  intros s1 s2 H. pose proof H as [Hv Ha]. apply aexpr_arr_mut; intros; simpl; try congruence.
  - rewrite H0, H1. destruct (arerr s2 t); [reflexivity|].
    destruct (aeval s2 i); simpl; [|reflexivity].
    rewrite (agetT_ext _ _ t v H). reflexivity.
  - rewrite H0, H1, H2. reflexivity.
Qed.

Lemma aeval_ext : forall s1 s2 a, store_eq s1 s2 -> aeval s1 a = aeval s2 a.
Proof. intros s1 s2 a H. apply (proj1 (aeval_ext_mut _ _ H)). Qed.

Lemma beval_ext : forall s1 s2 b, store_eq s1 s2 -> beval s1 b = beval s2 b.
Proof.
  intros s1 s2 b H; induction b; simpl;
    try rewrite IHb; try rewrite IHb1; try rewrite IHb2;
    try rewrite (aeval_ext _ _ a1 H); try rewrite (aeval_ext _ _ a2 H); reflexivity.
Qed.

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
