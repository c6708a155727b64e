(** * Symbolic execution is sound and complete for reachability (Theorem 2.1, whose
    two directions are Theorems 2.2 and 2.3) and for bug detection (Theorems 2.4, 2.5,
    2.6).  Numbers are those of Correnson and Steinhöfel, ESEC/FSE 2023. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic.
Import ListNotations.

(** ** Substitution lemmas *)

Lemma aclose_T_mut : forall E V,
  (forall a, aevalTE E V (aclose a) = aevalTE [] V a) /\
  (forall t j, agetTE E V (arclose t) j = agetTE [] V t j).
Proof.
  intros E V. apply aexpr_arr_mut; intros; simpl; try congruence.
  rewrite H0, H1, H. reflexivity.
Qed.

Lemma aclose_E_mut : forall E V,
  (forall a, aevalE E V (aclose a) = aevalE [] V a) /\
  (forall t, arerrE E V (arclose t) = arerrE [] V t).
Proof.
  intros E V. apply aexpr_arr_mut; intros; simpl; try congruence.
  - rewrite H, H0. destruct (arerrE [] V t); [reflexivity|].
    destruct (aevalE [] V i); simpl; [|reflexivity].
    rewrite (proj2 (aclose_T_mut E V)). reflexivity.
  - rewrite H, H0, H1. reflexivity.
Qed.

Lemma aevalT_subst_mut : forall E V Sg,
  (forall a, aevalTE E V (asubst Sg a) = aevalTE E (compose V Sg) a) /\
  (forall t j, agetTE E V (arsubst Sg t) j = agetTE E (compose V Sg) t j).
Proof.
  intros E V Sg. apply aexpr_arr_mut; intros; simpl; try congruence.
  all: first [apply (proj1 (aclose_T_mut E V)) | apply (proj2 (aclose_T_mut E V))
             | (rewrite H0, H1, H; reflexivity)].
Qed.

Lemma aevalT_subst : forall V Sg a,
  aevalT V (asubst Sg a) = aevalT (compose V Sg) a.
Proof. intros V Sg. apply (proj1 (aevalT_subst_mut [] V Sg)). Qed.

Lemma bevalTE_subst : forall V Sg b E,
  bevalTE E V (bsubst Sg b) = bevalTE E (compose V Sg) b.
Proof.
  intros V Sg b; induction b; intros E; simpl;
    try rewrite IHb; try rewrite IHb1; try rewrite IHb2;
    try rewrite !(proj1 (aevalT_subst_mut E V Sg)); try reflexivity.
  - destruct ex; [apply existsb_ext'|apply forallb_ext']; intros j; apply IHb.
  - f_equal. apply map_ext. intros j. rewrite IHb1, IHb2. reflexivity.
Qed.

Lemma bevalT_subst : forall V Sg b,
  bevalT V (bsubst Sg b) = bevalT (compose V Sg) b.
Proof. intros V Sg b. apply bevalTE_subst. Qed.

Lemma aeval_subst_mut : forall E V Sg, wf V Sg ->
  (forall a, aevalE E V (asubst Sg a) = aevalE E (compose V Sg) a) /\
  (forall t, arerrE E V (arsubst Sg t) = arerrE E (compose V Sg) t).
Proof.
  intros E V Sg [Hv Ha]. apply aexpr_arr_mut; intros; simpl; try congruence.
  all: try (rewrite (proj1 (aclose_E_mut E V)); apply Hv).
  all: try (rewrite (proj2 (aclose_E_mut E V)); apply Ha).
  all: try (rewrite H, H0, H1; reflexivity).
  rewrite H, H0. destruct (arerrE E (compose V Sg) t); [reflexivity|].
  destruct (aevalE E (compose V Sg) i); simpl; [|reflexivity].
  rewrite (proj2 (aevalT_subst_mut E V Sg)). reflexivity.
Qed.

Lemma aeval_subst : forall V Sg a,
  wf V Sg -> aeval V (asubst Sg a) = aeval (compose V Sg) a.
Proof. intros V Sg a H. apply (proj1 (aeval_subst_mut [] V Sg H)). Qed.

Lemma bevalE_subst : forall V Sg b E,
  wf V Sg -> bevalE E V (bsubst Sg b) = bevalE E (compose V Sg) b.
Proof.
  intros V Sg b; induction b; intros E H; simpl;
    try rewrite (IHb E H); try rewrite (IHb1 E H); try rewrite (IHb2 E H);
    try rewrite !(proj1 (aeval_subst_mut E V Sg H)); try reflexivity.
  - unfold bind. destruct (aevalE E (compose V Sg) a1); [|reflexivity].
    destruct (aevalE E (compose V Sg) a2); [|reflexivity].
    f_equal. apply map_ext. intros j. apply IHb, H.
  - unfold bind. destruct (aevalE E (compose V Sg) a1); [|reflexivity].
    destruct (aevalE E (compose V Sg) a2); [|reflexivity].
    f_equal. f_equal. apply map_ext. intros j. rewrite !bevalTE_subst. reflexivity.
Qed.

Lemma beval_subst : forall V Sg b,
  wf V Sg -> beval V (bsubst Sg b) = beval (compose V Sg) b.
Proof. intros V Sg b H. apply bevalE_subst, H. Qed.

Lemma weval_subst : forall V Sg lo hi i e,
  wf V Sg -> weval V lo hi (asubst Sg i) (asubst Sg e) = weval (compose V Sg) lo hi i e.
Proof. intros. unfold weval. rewrite !(aeval_subst _ _ _ H). reflexivity. Qed.

Lemma wf_sid : forall V, wf V sid.
Proof. intros V. split; intros; reflexivity. Qed.

Lemma compose_sid : forall V, store_eq V (compose V sid).
Proof. intros V. split; intros; reflexivity. Qed.

Lemma sat_and : forall V phi psi, sat V (Band phi psi) <-> sat V phi /\ sat V psi.
Proof. intros. unfold sat. simpl. apply andb_true_iff. Qed.

Lemma sat_not : forall V phi, sat V (Bnot phi) <-> bevalT V phi = false.
Proof. intros. unfold sat. simpl. apply negb_true_iff. Qed.

Lemma sat_true : forall V, sat V Btrue.
Proof. reflexivity. Qed.

(** The store after a write, symbolically and concretely. *)
Lemma compose_write : forall V Sg s a lo hi i e j v,
  wf V Sg -> store_eq s (compose V Sg) ->
  weval V lo hi (asubst Sg i) (asubst Sg e) = Ok (j, v) ->
  store_eq (aupdate s a j v)
           (compose V (saupdate Sg a (AStore (ssa Sg a) (asubst Sg i) (asubst Sg e)))).
Proof.
  intros V Sg s a lo hi i e j v Hwf [Hv Ha] H. unfold weval, bind in H.
  destruct (aeval V (asubst Sg i)) eqn:Ei; [|discriminate].
  destruct (aeval V (asubst Sg e)) eqn:Ee; [|discriminate].
  destruct (in_range lo hi v0); inversion H; subst.
  split; [intros x; apply Hv|]. intros b i'. simpl.
  destruct (String.eqb_spec a b) as [<-|Hne]; simpl.
  - unfold agetT. simpl. rewrite (aevalE_total _ _ _ _ Ei), (aevalE_total _ _ _ _ Ee).
    destruct (Z.eqb_spec j i') as [<-|Hj].
    + rewrite Z.eqb_refl. reflexivity.
    + destruct (Z.eqb_spec i' j); [congruence|]. apply Ha.
  - apply Ha.
Qed.

(** ** One symbolic step *)

(** Path conditions only grow. *)
Lemma sym_step_sat_mono : forall phi Sg p phi' Sg' p' V,
  sym_step (phi, Sg, p) (phi', Sg', p') -> sat V phi' -> sat V phi.
Proof.
  intros phi Sg p phi' Sg' p' V H. remember (phi, Sg, p) as t. remember (phi', Sg', p') as t'.
  revert phi Sg p phi' Sg' p' Heqt Heqt'.
  induction H; intros phi0 Sg0 p0 phi0' Sg0' p0' E E' Hs; inversion E; inversion E'; subst;
    try (apply sat_and in Hs; apply Hs); try assumption.
  eapply IHsym_step; eauto.
Qed.

Lemma sym_steps_sat_mono : forall t t' V,
  sym_steps t t' -> sat V (pc t') -> sat V (pc t).
Proof.
  intros t t' V H. induction H; intros Hs; [assumption|].
  destruct a as [[phi Sg] p], b as [[phib Sgb] pb].
  apply (sym_step_sat_mono _ _ _ _ _ _ V H). apply IHstar. assumption.
Qed.

(** Well-formedness is preserved under the new path condition. *)
Lemma sym_step_wf : forall phi Sg p phi' Sg' p' V,
  sym_step (phi, Sg, p) (phi', Sg', p') -> sat V phi' -> wf V Sg -> wf V Sg'.
Proof.
  intros phi Sg p phi' Sg' p' V H. remember (phi, Sg, p) as t. remember (phi', Sg', p') as t'.
  revert phi Sg p phi' Sg' p' Heqt Heqt'.
  induction H; intros phi0 Sg0 p0 phi0' Sg0' p0' E E' Hs Hwf;
    inversion E; inversion E'; subst; try assumption.
  - apply sat_and in Hs. destruct Hs as [_ HD].
    apply aD_correct in HD. destruct HD as [v Hv].
    destruct Hwf as [Hwv Hwa]. split; [|exact Hwa].
    intros y. simpl. destruct (String.eqb x y).
    + rewrite Hv. rewrite (aeval_total _ _ _ Hv). reflexivity.
    + apply Hwv.
  - apply sat_and in Hs. destruct Hs as [_ HD].
    apply wD_correct in HD. destruct HD as [jv Hjv].
    unfold weval, bind in Hjv.
    destruct (aeval V (asubst Sg0 i)) eqn:Ei; [|discriminate].
    destruct (aeval V (asubst Sg0 e)) eqn:Ee; [|discriminate].
    destruct Hwf as [Hwv Hwa]. split; [exact Hwv|].
    intros b. simpl. destruct (String.eqb a b); [|apply Hwa].
    unfold arerr. simpl. unfold arerr in Hwa. unfold aeval in Ei, Ee. rewrite Hwa, Ei, Ee. reflexivity.
  - eapply IHsym_step; eauto.
Qed.

(** Completeness of one step: every concrete step of a concretization is matched
    by a symbolic step whose successor concretizes to the concrete successor. *)
Lemma sym_step_complete : forall V phi Sg s p s' p',
  sat V phi -> wf V Sg -> store_eq s (compose V Sg) ->
  step (s, p) (s', p') ->
  exists phi' Sg', sym_step (phi, Sg, p) (phi', Sg', p') /\ sat V phi' /\
                   store_eq s' (compose V Sg').
Proof.
  intros V phi Sg s p s' p' Hphi Hwf Hs H.
  remember (s, p) as c. remember (s', p') as c'.
  revert s p s' p' Heqc Heqc' Hs.
  induction H; intros s0 p0 s0' p0' E E' Hs; inversion E; inversion E'; subst.
  - (* S-Assign *)
    rewrite (aeval_ext _ _ _ Hs), <- (aeval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_Assign|]. split.
    + apply sat_and. split; [assumption|]. apply aD_correct. eauto.
    + destruct Hs as [Hv Ha]. split; [|exact Ha].
      intros y. simpl. destruct (String.eqb x y).
      * symmetry. apply aeval_total. assumption.
      * apply Hv.
  - (* S-AssignErr *)
    pose proof (aeval_err_can _ _ _ H) as Hd.
    rewrite (aeval_ext _ _ _ Hs), <- (aeval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_AssignErr; exact Hd|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply aF_correct. assumption.
  - (* S-ArrAssign *)
    rewrite (weval_ext _ _ _ _ _ _ Hs), <- (weval_subst _ _ _ _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_ArrAssign|]. split.
    + apply sat_and. split; [assumption|]. apply wD_correct. eauto.
    + apply (compose_write V Sg s0 a lo hi i e j v Hwf Hs H).
  - (* S-ArrAssignErr *)
    pose proof (weval_err_can _ _ _ _ _ _ H) as Hd.
    rewrite (weval_ext _ _ _ _ _ _ Hs), <- (weval_subst _ _ _ _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_ArrAssignErr; exact Hd|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply wF_correct. assumption.
  - (* S-IfTrue *)
    rewrite (beval_ext _ _ _ Hs), <- (beval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_IfTrue|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply sat_and. split.
    + apply bD_correct. eauto.
    + apply (beval_total _ _ _ H).
  - (* S-IfFalse *)
    rewrite (beval_ext _ _ _ Hs), <- (beval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_IfFalse|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply sat_and. split.
    + apply bD_correct. eauto.
    + apply sat_not. apply (beval_total _ _ _ H).
  - (* S-IfErr *)
    pose proof (beval_err_can _ _ _ H) as Hd.
    rewrite (beval_ext _ _ _ Hs), <- (beval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_IfErr; exact Hd|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply bF_correct. assumption.
  - (* S-While *)
    do 2 eexists. split; [apply E_While|]. split; assumption.
  - (* S-Assume *)
    rewrite (beval_ext _ _ _ Hs), <- (beval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_Assume|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply sat_and. split.
    + apply bD_correct. eauto.
    + apply (beval_total _ _ _ H).
  - (* S-AssumeErr *)
    pose proof (beval_err_can _ _ _ H) as Hd.
    rewrite (beval_ext _ _ _ Hs), <- (beval_subst _ _ _ Hwf) in H.
    do 2 eexists. split; [apply E_AssumeErr; exact Hd|]. split; [|assumption].
    apply sat_and. split; [assumption|]. apply bF_correct. assumption.
  - (* S-SeqSkip *)
    do 2 eexists. split; [apply E_SeqSkip|]. split; assumption.
  - (* S-Seq *)
    destruct (IHstep s0 p s0' p' eq_refl eq_refl Hs) as (phi' & Sg' & H1 & H2 & H3).
    exists phi', Sg'. split; [apply E_Seq; assumption|]. split; assumption.
Qed.

(** Soundness of one step: a symbolic step whose successor's path condition holds
    under [V] is matched by a concrete step. *)
Lemma sym_step_sound : forall V phi Sg p phi' Sg' p' s,
  sym_step (phi, Sg, p) (phi', Sg', p') -> sat V phi' -> wf V Sg ->
  store_eq s (compose V Sg) ->
  exists s', step (s, p) (s', p') /\ store_eq s' (compose V Sg').
Proof.
  intros V phi Sg p phi' Sg' p' s H. remember (phi, Sg, p) as t. remember (phi', Sg', p') as t'.
  revert phi Sg p phi' Sg' p' Heqt Heqt' s.
  induction H; intros phi0 Sg0 p0 phi0' Sg0' p0' E E' s0 Hsat Hwf Hs;
    inversion E; inversion E'; subst.
  - (* E-Assign *)
    apply sat_and in Hsat. destruct Hsat as [_ HD].
    apply aD_correct in HD. destruct HD as [v Hv].
    pose proof Hv as Hv0.
    rewrite (aeval_subst _ _ _ Hwf), <- (aeval_ext _ _ _ Hs) in Hv.
    exists (update s0 x v). split; [constructor; assumption|].
    destruct Hs as [Hsv Hsa]. split; [|exact Hsa].
    intros y. simpl. destruct (String.eqb x y).
    + symmetry. apply aeval_total. assumption.
    + apply Hsv.
  - (* E-AssignErr *)
    apply sat_and in Hsat. destruct Hsat as [_ HD].
    apply aF_correct in HD.
    rewrite (aeval_subst _ _ _ Hwf), <- (aeval_ext _ _ _ Hs) in HD.
    exists s0. split; [apply S_AssignErr; assumption|assumption].
  - (* E-ArrAssign *)
    apply sat_and in Hsat. destruct Hsat as [_ HD].
    apply wD_correct in HD. destruct HD as [[j v] Hv].
    pose proof Hv as Hv0.
    rewrite (weval_subst _ _ _ _ _ _ Hwf), <- (weval_ext _ _ _ _ _ _ Hs) in Hv.
    exists (aupdate s0 a j v). split; [constructor; assumption|].
    apply (compose_write V Sg0 s0 a lo hi i e j v Hwf Hs Hv0).
  - (* E-ArrAssignErr *)
    apply sat_and in Hsat. destruct Hsat as [_ HD].
    apply wF_correct in HD.
    rewrite (weval_subst _ _ _ _ _ _ Hwf), <- (weval_ext _ _ _ _ _ _ Hs) in HD.
    exists s0. split; [apply S_ArrAssignErr; assumption|assumption].
  - (* E-IfTrue *)
    apply sat_and in Hsat. destruct Hsat as [_ Hsat]. apply sat_and in Hsat.
    destruct Hsat as [HD Hb]. apply bD_correct in HD. destruct HD as [v Hv].
    pose proof (beval_total _ _ _ Hv) as Hv'. unfold sat in Hb. rewrite Hb in Hv'. subst v.
    rewrite (beval_subst _ _ _ Hwf), <- (beval_ext _ _ _ Hs) in Hv.
    exists s0. split; [apply S_IfTrue; assumption|assumption].
  - (* E-IfFalse *)
    apply sat_and in Hsat. destruct Hsat as [_ Hsat]. apply sat_and in Hsat.
    destruct Hsat as [HD Hb]. apply bD_correct in HD. destruct HD as [v Hv].
    pose proof (beval_total _ _ _ Hv) as Hv'. apply sat_not in Hb. rewrite Hb in Hv'. subst v.
    rewrite (beval_subst _ _ _ Hwf), <- (beval_ext _ _ _ Hs) in Hv.
    exists s0. split; [apply S_IfFalse; assumption|assumption].
  - (* E-IfErr *)
    apply sat_and in Hsat. destruct Hsat as [_ HD].
    apply bF_correct in HD.
    rewrite (beval_subst _ _ _ Hwf), <- (beval_ext _ _ _ Hs) in HD.
    exists s0. split; [apply S_IfErr; assumption|assumption].
  - (* E-While *)
    exists s0. split; [constructor|assumption].
  - (* E-Assume *)
    apply sat_and in Hsat. destruct Hsat as [_ Hsat]. apply sat_and in Hsat.
    destruct Hsat as [HD Hb]. apply bD_correct in HD. destruct HD as [v Hv].
    pose proof (beval_total _ _ _ Hv) as Hv'. unfold sat in Hb. rewrite Hb in Hv'. subst v.
    rewrite (beval_subst _ _ _ Hwf), <- (beval_ext _ _ _ Hs) in Hv.
    exists s0. split; [apply S_Assume; assumption|assumption].
  - (* E-AssumeErr *)
    apply sat_and in Hsat. destruct Hsat as [_ HD].
    apply bF_correct in HD.
    rewrite (beval_subst _ _ _ Hwf), <- (beval_ext _ _ _ Hs) in HD.
    exists s0. split; [apply S_AssumeErr; assumption|assumption].
  - (* E-SeqSkip *)
    exists s0. split; [constructor|assumption].
  - (* E-Seq *)
    destruct (IHsym_step _ _ _ _ _ _ eq_refl eq_refl s0 Hsat Hwf Hs) as [s' [H1 H2]].
    exists s'. split; [constructor; assumption|assumption].
Qed.

(** ** Many steps *)

Lemma sym_steps_complete : forall V s p s' p',
  steps (s, p) (s', p') ->
  forall phi Sg, sat V phi -> wf V Sg -> store_eq s (compose V Sg) ->
  exists phi' Sg', sym_steps (phi, Sg, p) (phi', Sg', p') /\ sat V phi' /\
                   wf V Sg' /\ store_eq s' (compose V Sg').
Proof.
  intros V s p s' p' H. remember (s, p) as c. remember (s', p') as c'.
  revert s p Heqc. induction H; intros s0 p0 E phi Sg Hphi Hwf Hs; subst.
  - inversion E; subst. exists phi, Sg. split; [constructor|]. split; [assumption|]. split; assumption.
  - destruct b as [sb pb].
    destruct (sym_step_complete V phi Sg s0 p0 sb pb Hphi Hwf Hs H) as (phib & Sgb & H1 & H2 & H3).
    pose proof (sym_step_wf _ _ _ _ _ _ V H1 H2 Hwf) as Hwfb.
    destruct (IHstar eq_refl sb pb eq_refl phib Sgb H2 Hwfb H3) as (phi' & Sg' & H4 & H5 & H6 & H7).
    exists phi', Sg'. split; [econstructor; eauto|]. split; [assumption|]. split; assumption.
Qed.

Lemma sym_steps_sound : forall V t t',
  sym_steps t t' -> sat V (pc t') ->
  forall s, wf V (snd (fst t)) -> store_eq s (compose V (snd (fst t))) ->
  exists s', steps (s, prog t) (s', prog t') /\ store_eq s' (compose V (snd (fst t'))).
Proof.
  intros V t t' H. induction H; intros Hsat s Hwf Hs.
  - exists s. split; [constructor|assumption].
  - destruct a as [[phia Sga] pa], b as [[phib Sgb] pb].
    pose proof (sym_steps_sat_mono _ _ V H0 Hsat) as Hb. simpl in Hb, Hwf, Hs.
    destruct (sym_step_sound V _ _ _ _ _ _ s H Hb Hwf Hs) as [sb [H1 H2]].
    pose proof (sym_step_wf _ _ _ _ _ _ V H Hb Hwf) as Hwfb.
    destruct (IHstar Hsat sb Hwfb H2) as [s' [H3 H4]].
    exists s'. split; [econstructor; eauto|assumption].
Qed.

(** Reachable symbolic stores are well defined under their path condition. *)
Lemma reach_wf : forall p phi Sg q V,
  sym_steps (sym_init p) (phi, Sg, q) -> sat V phi -> wf V Sg.
Proof.
  intros p phi Sg q V H.
  assert (forall t t', sym_steps t t' -> sat V (pc t') -> wf V (snd (fst t)) ->
                       wf V (snd (fst t'))) as G.
  { clear. intros t t' H. induction H; intros Hs Hw; [assumption|].
    destruct a as [[phia Sga] pa], b as [[phib Sgb] pb].
    apply IHstar; [assumption|].
    eapply sym_step_wf; eauto. eapply (sym_steps_sat_mono _ _ V H0 Hs). }
  intros Hs. apply (G _ _ H Hs (wf_sid V)).
Qed.

(** ** Theorem 2.1: sound and complete reachability *)

(** Completeness: every concrete run from input [V] is covered by a symbolic
    run whose final state concretizes, under [V], to the concrete final state. *)
Theorem reach_complete : forall V p s' p',
  steps (V, p) (s', p') ->
  exists phi Sg, sym_steps (sym_init p) (phi, Sg, p') /\ sat V phi /\
                 store_eq s' (compose V Sg).
Proof.
  intros V p s' p' H.
  destruct (sym_steps_complete V V p s' p' H Btrue sid (sat_true V) (wf_sid V) (compose_sid V))
    as (phi & Sg & H1 & H2 & _ & H3).
  exists phi, Sg. auto.
Qed.

(** Soundness: every valuation satisfying the path condition of a reachable
    symbolic state is an input whose concrete run reaches its concretization. *)
Theorem reach_sound : forall V p phi Sg p',
  sym_steps (sym_init p) (phi, Sg, p') -> sat V phi ->
  exists s', steps (V, p) (s', p') /\ store_eq s' (compose V Sg).
Proof.
  intros V p phi Sg p' H Hs.
  exact (sym_steps_sound V _ _ H Hs V (wf_sid V) (compose_sid V)).
Qed.

(** Theorem 2.1 as one equivalence, stores up to pointwise equality:
    [(V, p) →* (s', p')] iff [⟨true, id, p⟩ →* ⟨φ, S, p'⟩] with [V ⊨ φ] and
    [s' = V ∘ S]. *)
Theorem reach_iff : forall V p t p',
  (exists s', steps (V, p) (s', p') /\ store_eq s' t) <->
  (exists phi Sg, sym_steps (sym_init p) (phi, Sg, p') /\ sat V phi /\
                  store_eq t (compose V Sg)).
Proof.
  intros V p t p'. split.
  - intros (s' & H & Ht).
    destruct (reach_complete V p s' p' H) as (phi & Sg & H1 & H2 & H3).
    exists phi, Sg. split; [assumption|]. split; [assumption|].
    apply (store_eq_trans _ s'); [apply store_eq_sym|]; assumption.
  - intros (phi & Sg & H1 & H2 & H3).
    destruct (reach_sound V p phi Sg p' H1 H2) as (s' & H4 & H5).
    exists s'. split; [assumption|].
    apply (store_eq_trans _ (compose V Sg)); [|apply store_eq_sym]; assumption.
Qed.

(** ** Theorems 2.4, 2.5, 2.6: bug detection *)

(** Per input (the form used for Theorem 2.6, bad inputs): the run of [p] on input [V]
    reaches an error iff a symbolic error state whose path condition [V] satisfies is
    reachable. *)
Theorem bug_input_iff : forall V p,
  (exists s' p', steps (V, p) (s', p') /\ is_error p' = true) <->
  (exists phi Sg p', sym_steps (sym_init p) (phi, Sg, p') /\ sat V phi /\
                     is_error p' = true).
Proof.
  intros V p. split.
  - intros (s' & p' & H & He).
    destruct (reach_complete V p s' p' H) as (phi & Sg & H1 & H2 & _).
    exists phi, Sg, p'. auto.
  - intros (phi & Sg & p' & H & Hs & He).
    destruct (reach_sound V p phi Sg p' H Hs) as (s' & H1 & _).
    exists s', p'. auto.
Qed.

(** Theorem 2.4 in the form used by the bug finder: [p] has a bug iff some potential
    bug has a satisfiable path condition. *)
Theorem has_bug_iff : forall p,
  has_bug p <-> exists t, potential_bug p t /\ exists V, sat V (pc t).
Proof.
  intros p. split.
  - intros ([s q] & V & s' & H & Heq & He). simpl in *.
    destruct (reach_complete V p s' q H) as (phi & Sg & H1 & H2 & _).
    exists (phi, Sg, q). split; [split; assumption|]. exists V. assumption.
  - intros ([[phi Sg] q] & [H He] & V & Hs). simpl in *.
    destruct (reach_sound V p phi Sg q H Hs) as (s' & H1 & _).
    exists (s', q), V, s'. simpl. split; [assumption|]. split; [apply store_eq_refl|assumption].
Qed.

(** Theorem 2.5 in the form used by the bug finder: a concrete state is a bug of [p]
    iff it is a concretization of a potential bug of [p]. *)
Theorem is_bug_iff : forall p c,
  IsBug p c <-> exists t, potential_bug p t /\ Concrete t c.
Proof.
  intros p [s q]. split.
  - intros (V & s' & H & Heq & He). simpl in *.
    destruct (reach_complete V p s' q H) as (phi & Sg & H1 & H2 & H3).
    exists (phi, Sg, q). split; [split; assumption|].
    exists V. simpl. split; [assumption|]. split; [|reflexivity].
    apply (store_eq_trans _ s'); [apply store_eq_sym|]; assumption.
  - intros ([[phi Sg] q'] & [H He] & V & Hs & Heq & Hq). simpl in *. subst q'.
    destruct (reach_sound V p phi Sg q H Hs) as (s' & H1 & H2).
    exists V, s'. simpl. split; [assumption|]. split; [|assumption].
    apply (store_eq_trans _ (compose V Sg)); [|apply store_eq_sym]; assumption.
Qed.

(** Every concretization of a potential bug is a bug. *)
Corollary potential_bug_valid : forall p t, potential_bug p t -> ValidBug p t.
Proof. intros p t H c Hc. apply is_bug_iff. eauto. Qed.

(** ** The same theorems in the shape of the paper's statements *)

(** Theorem 2.1 (sound and complete reachability). *)
Theorem Reach_correct : forall p c, SReach p c <-> CReach p c.
Proof.
  intros p [t q]. split.
  - intros (V & [[phi Sg] q'] & H & Hs & Heq & Hq). simpl in *. subst q'.
    destruct (proj2 (reach_iff V p t q) (ex_intro _ phi (ex_intro _ Sg (conj H (conj Hs Heq)))))
      as (s' & H1 & H2).
    exists V, s'. auto.
  - intros (V & s' & H & Heq). simpl in *.
    destruct (proj1 (reach_iff V p t q) (ex_intro _ s' (conj H Heq))) as (phi & Sg & H1 & H2 & H3).
    exists V, (phi, Sg, q). split; [assumption|]. simpl. auto.
Qed.

(** Theorem 2.2 (sound reachability): [Reach_sym(p, σ) ⇒ Reach(p, σ)]. *)
Theorem sound_reachability : forall p c, SReach p c -> CReach p c.
Proof. intros p c. apply Reach_correct. Qed.

(** Theorem 2.3 (complete reachability): [Reach(p, σ) ⇒ Reach_sym(p, σ)]. *)
Theorem complete_reachability : forall p c, CReach p c -> SReach p c.
Proof. intros p c. apply Reach_correct. Qed.

(** Theorem 2.4: [p] has a bug symbolically iff it has one concretely. *)
Theorem HasBug_correct : forall p, SHasBug p <-> has_bug p.
Proof.
  intros p. split.
  - intros (c & H & He). apply Reach_correct in H. destruct H as (V & s & H1 & H2).
    exists c, V, s. auto.
  - intros (c & V & s & H1 & H2 & He). exists c. split; [|assumption].
    apply Reach_correct. exists V, s. auto.
Qed.

(** Theorem 2.5: a state is a bug symbolically iff it is one concretely. *)
Theorem IsBug_correct : forall p c, SIsBug p c <-> IsBug p c.
Proof.
  intros p c. split.
  - intros (H & He). apply Reach_correct in H. destruct H as (V & s & H1 & H2).
    exists V, s. auto.
  - intros (V & s & H1 & H2 & He). split; [|assumption].
    apply Reach_correct. exists V, s. auto.
Qed.

(** Theorem 2.6: an input is bad symbolically iff it is bad concretely. *)
Theorem BadInput_correct : forall p V, SBadInput p V <-> BadInput p V.
Proof.
  intros p V. split.
  - intros ([s q] & [[phi Sg] q'] & H & (Hs & Heq & Hq) & He). simpl in *. subst q'.
    destruct (reach_sound V p phi Sg q H Hs) as (s' & H1 & _).
    exists (s', q). auto.
  - intros ([s q] & H & He). simpl in *.
    destruct (reach_complete V p s q H) as (phi & Sg & H1 & H2 & H3).
    exists (s, q), (phi, Sg, q). simpl. auto.
Qed.
