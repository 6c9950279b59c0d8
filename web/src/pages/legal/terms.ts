/** Terms of use: 26 articles, last updated 30 August 2021 (spec section 9). */
export interface LegalSection {
  title: string;
  body: string[];
}

export interface LegalDocument {
  title: string;
  updated: string;
  intro: string;
  sections: LegalSection[];
}

export const termsEn: LegalDocument = {
  title: 'Terms of Use',
  updated: '2021/08/30',
  intro:
    'These Terms of Use set out the conditions under which Topline Inc. ("we") provides Topline, a web service for building and tracking business plans (the "Service"). Everyone who uses the Service ("Users") agrees to these Terms.',
  sections: [
    {
      title: 'Article 1 (Application)',
      body: [
        'These Terms apply to every relationship between a User and us concerning the use of the Service. Guidelines and notices we publish in the Service form part of these Terms.',
      ],
    },
    {
      title: 'Article 2 (Definitions)',
      body: [
        '"Business plan" means the plans, cases, assumptions, actuals and other data a User enters in the Service. "Paid plan" means the Basic or Team plan. "Member" means a person a User invites to a business plan.',
      ],
    },
    {
      title: 'Article 3 (Registration)',
      body: [
        'A person who wishes to use the Service applies by the method we specify, after attending a live demonstration. Registration is complete when we accept the application. We may refuse an application without giving reasons.',
      ],
    },
    {
      title: 'Article 4 (Account management)',
      body: [
        "Users keep their e-mail address, password and Google account secure at their own responsibility. Any use made through a User's credentials is treated as use by that User.",
      ],
    },
    {
      title: 'Article 5 (Plans and fees)',
      body: [
        'The Service offers the Free, Basic and Team plans with the allowances and fees shown on the pricing page. Fees include consumption tax; communication fees and card fees are borne by the User.',
      ],
    },
    {
      title: 'Article 6 (Free trial)',
      body: [
        'We may offer a free trial for a fixed period. When the trial ends, the User continues on the Free plan unless they apply for a paid plan.',
      ],
    },
    {
      title: 'Article 7 (Payment)',
      body: [
        "Fees for paid plans are paid in advance by credit card, monthly or annually. The payment date depends on the card company's terms. The Service is available as soon as the application is accepted.",
      ],
    },
    {
      title: 'Article 8 (Late payment)',
      body: [
        'If a User fails to pay a fee when due, the User shall pay late charges at 14.6% per year on the unpaid amount from the day after the due date until payment.',
      ],
    },
    {
      title: 'Article 9 (No refunds)',
      body: [
        'Fees once paid are not refunded, and purchases cannot be cancelled, except where the law requires otherwise.',
      ],
    },
    {
      title: 'Article 10 (Members and permissions)',
      body: [
        'The owner of a business plan may invite members and set their access per page. The owner is responsible for the members they invite and the permissions they grant.',
      ],
    },
    {
      title: 'Article 11 (User data)',
      body: [
        'Rights in the data Users enter remain with the Users. Users grant us the right to store, process and display that data to the extent needed to provide the Service.',
      ],
    },
    {
      title: 'Article 12 (Intellectual property)',
      body: [
        'All rights in the Service, its software, templates, benchmarks and content belong to us or to our licensors, except for User data.',
      ],
    },
    {
      title: 'Article 13 (Prohibited acts)',
      body: [
        'Users shall not: break the law or public order; infringe the rights of others; access the Service by unauthorised means; place excessive load on our systems; reverse engineer the Service; resell the Service without our consent; or do anything else we reasonably judge inappropriate.',
      ],
    },
    {
      title: 'Article 14 (External services)',
      body: [
        'Where a User connects Google Sheets or another external service, the terms of that service also apply. We are not responsible for the external service itself.',
      ],
    },
    {
      title: 'Article 15 (Suspension of the Service)',
      body: [
        'We may suspend all or part of the Service without notice for maintenance, failures, disasters, outages of communication lines or other unavoidable reasons.',
      ],
    },
    {
      title: 'Article 16 (Suspension and termination of accounts)',
      body: [
        "If a User breaches these Terms, we may suspend the User's use or terminate the account after 7 days' notice, or immediately where the breach is serious.",
      ],
    },
    {
      title: 'Article 17 (Cancellation by Users)',
      body: [
        'A User may cancel a paid plan from the settings screen or by contacting us. Cancellation takes effect at the end of the month following the month of the request; the plan remains usable until the end of the paid billing period.',
      ],
    },
    {
      title: 'Article 18 (No warranty)',
      body: [
        'The figures the Service computes are projections based on the inputs and templates chosen by the User. We do not warrant that any plan will be achieved or that the Service fits a particular purpose.',
      ],
    },
    {
      title: 'Article 19 (Limitation of liability)',
      body: [
        'Where we are liable to a User, our liability is limited to direct and ordinary damage and to the total fees the User paid in the three months before the damage occurred, except in cases of our intent or gross negligence.',
      ],
    },
    {
      title: 'Article 20 (Confidentiality)',
      body: [
        "Each party keeps confidential the other party's non-public information obtained through the Service. This obligation survives for 3 years after the end of the use of the Service.",
      ],
    },
    {
      title: 'Article 21 (Personal information)',
      body: ['We handle personal information in accordance with our Privacy Policy.'],
    },
    {
      title: 'Article 22 (Changes to the Service)',
      body: [
        'We may change, add to or end features of the Service. Where a change significantly affects Users, we give notice in advance.',
      ],
    },
    {
      title: 'Article 23 (Changes to these Terms)',
      body: [
        'We may change these Terms. We announce changes in the Service at least 14 days before they take effect; a User who continues to use the Service after that date accepts the changed Terms.',
      ],
    },
    {
      title: 'Article 24 (Assignment)',
      body: [
        "Users may not assign their position under these Terms without our written consent. If we transfer the business of the Service, we may transfer the Users' position and data with it.",
      ],
    },
    {
      title: 'Article 25 (Exclusion of anti-social forces)',
      body: [
        'Users represent that they are not, and will not become, involved with organised crime groups or other anti-social forces.',
      ],
    },
    {
      title: 'Article 26 (Governing law and jurisdiction)',
      body: [
        'These Terms are governed by Japanese law. The Tokyo District Court has exclusive jurisdiction in the first instance over any dispute about the Service.',
      ],
    },
  ],
};

export const termsJa: LegalDocument = {
  title: '利用規約',
  updated: '2021/08/30',
  intro:
    '本利用規約（以下「本規約」）は、Topline株式会社（以下「当社」）が提供する事業計画の作成・管理サービス「Topline」（以下「本サービス」）の利用条件を定めるものです。本サービスを利用するすべての方（以下「ユーザー」）は本規約に同意したものとみなします。',
  sections: [
    {
      title: '第1条（適用）',
      body: [
        '本規約は、本サービスの利用に関するユーザーと当社との一切の関係に適用されます。当社が本サービス上で掲載するガイドライン・通知は本規約の一部を構成します。',
      ],
    },
    {
      title: '第2条（定義）',
      body: [
        '「事業計画」とは、ユーザーが本サービスに入力する計画、ケース、前提、実績その他のデータをいいます。「有料プラン」とはBasicプランおよびTeamプランをいい、「メンバー」とはユーザーが事業計画に招待した者をいいます。',
      ],
    },
    {
      title: '第3条（利用登録）',
      body: [
        '利用希望者は、ライブデモを受けた上で当社所定の方法により申し込み、当社が承諾した時点で登録が完了します。当社は理由を開示せずに申込みを承諾しないことがあります。',
      ],
    },
    {
      title: '第4条（アカウントの管理）',
      body: [
        'ユーザーは、自己の責任でメールアドレス、パスワードおよびGoogleアカウントを管理するものとします。ユーザーの認証情報による利用は、当該ユーザーによる利用とみなします。',
      ],
    },
    {
      title: '第5条（プランと料金）',
      body: [
        '本サービスには料金ページに記載のFree・Basic・Teamの各プランがあります。料金は消費税込みであり、通信料およびカード手数料はユーザーの負担とします。',
      ],
    },
    {
      title: '第6条（無料トライアル）',
      body: [
        '当社は一定期間の無料トライアルを提供することがあります。トライアル終了後、有料プランに申し込まない場合はFreeプランで継続します。',
      ],
    },
    {
      title: '第7条（支払方法）',
      body: [
        '有料プランの料金は、月払いまたは年払いでクレジットカードにより前払いするものとします。支払時期はカード会社の規約によります。本サービスは申込みの承諾後ただちに利用できます。',
      ],
    },
    {
      title: '第8条（遅延損害金）',
      body: [
        'ユーザーが料金の支払いを遅延した場合、支払期日の翌日から支払済みまで年14.6％の割合による遅延損害金を支払うものとします。',
      ],
    },
    { title: '第9条（返金）', body: ['法令に定める場合を除き、支払済みの料金は返金せず、購入の取消しはできません。'] },
    {
      title: '第10条（メンバーと権限）',
      body: [
        '事業計画のオーナーはメンバーを招待し、ページごとの権限を設定できます。オーナーは招待したメンバーおよび付与した権限について責任を負います。',
      ],
    },
    {
      title: '第11条（ユーザーデータ）',
      body: [
        'ユーザーが入力したデータの権利はユーザーに帰属します。ユーザーは本サービスの提供に必要な範囲で、当社が当該データを保存・処理・表示することを許諾します。',
      ],
    },
    {
      title: '第12条（知的財産権）',
      body: [
        '本サービス、そのソフトウェア、テンプレート、ベンチマークおよびコンテンツに関する権利は、ユーザーデータを除き当社またはライセンサーに帰属します。',
      ],
    },
    {
      title: '第13条（禁止事項）',
      body: [
        'ユーザーは、法令または公序良俗に違反する行為、第三者の権利を侵害する行為、不正な手段によるアクセス、システムへの過度な負荷、リバースエンジニアリング、当社の承諾のない再販売、その他当社が合理的に不適切と判断する行為をしてはなりません。',
      ],
    },
    {
      title: '第14条（外部サービス）',
      body: [
        'ユーザーがGoogleスプレッドシートその他の外部サービスと連携する場合、当該サービスの規約も適用されます。当社は外部サービス自体について責任を負いません。',
      ],
    },
    {
      title: '第15条（本サービスの停止）',
      body: [
        '当社は、保守、障害、天災、通信回線の停止その他やむを得ない事由により、予告なく本サービスの全部または一部を停止することがあります。',
      ],
    },
    {
      title: '第16条（利用停止および登録抹消）',
      body: [
        'ユーザーが本規約に違反した場合、当社は7日前までに通知の上で利用停止または登録抹消を行うことができます。重大な違反の場合はただちに行うことができます。',
      ],
    },
    {
      title: '第17条（ユーザーによる解約）',
      body: [
        'ユーザーは設定画面または当社への連絡により有料プランを解約できます。解約は申出月の翌月末日に効力を生じ、支払済みの請求期間の終了まではプランを利用できます。',
      ],
    },
    {
      title: '第18条（保証の否認）',
      body: [
        '本サービスが算出する数値は、ユーザーが選択した入力値とテンプレートに基づく予測です。当社は計画の達成や特定目的への適合性を保証しません。',
      ],
    },
    {
      title: '第19条（責任の制限）',
      body: [
        '当社がユーザーに対して責任を負う場合、当社の故意または重過失による場合を除き、その範囲は直接かつ通常の損害に限られ、損害発生前3か月間にユーザーが支払った料金の総額を上限とします。',
      ],
    },
    {
      title: '第20条（秘密保持）',
      body: [
        '各当事者は、本サービスを通じて知り得た相手方の非公開情報を秘密として保持します。この義務は本サービスの利用終了後3年間存続します。',
      ],
    },
    { title: '第21条（個人情報）', body: ['当社は、プライバシーポリシーに従って個人情報を取り扱います。'] },
    {
      title: '第22条（サービス内容の変更）',
      body: [
        '当社は本サービスの機能を変更、追加または終了することがあります。ユーザーに重大な影響がある変更は事前に通知します。',
      ],
    },
    {
      title: '第23条（本規約の変更）',
      body: [
        '当社は本規約を変更することがあります。変更は効力発生日の14日前までに本サービス上で告知し、効力発生日以降に本サービスを利用したユーザーは変更後の規約に同意したものとみなします。',
      ],
    },
    {
      title: '第24条（地位の譲渡）',
      body: [
        'ユーザーは当社の書面による承諾なく本規約上の地位を譲渡できません。当社が本サービスに係る事業を譲渡する場合、ユーザーの地位およびデータを併せて譲渡できるものとします。',
      ],
    },
    {
      title: '第25条（反社会的勢力の排除）',
      body: ['ユーザーは、暴力団その他の反社会的勢力に該当せず、今後も関与しないことを表明し保証します。'],
    },
    {
      title: '第26条（準拠法・管轄）',
      body: [
        '本規約は日本法に準拠します。本サービスに関する紛争は、東京地方裁判所を第一審の専属的合意管轄裁判所とします。',
      ],
    },
  ],
};
